//===- depth.cpp - how deeply parsed IR nests -----------------------------===//
//
// Text is measured before MLIR parses it (pld_ir::nesting); bytecode is
// read by MLIR as it is, and a type nested 20000 levels deep (which stock
// mlir-opt writes from a chain of aliases) overflows the stack of MLIR's
// printer and of pld's walks. This measures a parsed op without recursing:
// the region level of each op plus its deepest attribute or type (its
// attributes, properties, location, result and block argument types and
// locations), by an explicit stack and a memo of each uniqued element.
// Used by pld_ir::parse (ir/src/parse.rs) on bytecode input.
//
//===----------------------------------------------------------------------===//

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PointerUnion.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <utility>

namespace {

using Element = llvm::PointerUnion<mlir::Attribute::ImplType *, mlir::Type::ImplType *>;

Element of(mlir::Attribute attribute) { return attribute.getImpl(); }
Element of(mlir::Type type) { return type.getImpl(); }

/// The attributes and types `element` holds directly.
llvm::SmallVector<Element> children(Element element) {
  llvm::SmallVector<Element> found;
  auto attribute = [&](mlir::Attribute a) { found.push_back(of(a)); };
  auto type = [&](mlir::Type t) { found.push_back(of(t)); };
  if (auto *a = llvm::dyn_cast<mlir::Attribute::ImplType *>(element))
    mlir::Attribute(a).walkImmediateSubElements(attribute, type);
  else
    mlir::Type(llvm::cast<mlir::Type::ImplType *>(element)).walkImmediateSubElements(attribute, type);
  return found;
}

/// Depths of attributes and types (a leaf is 1), memoized; an element met
/// again while being measured (a recursive type) counts as 0 there.
class Depths {
public:
  unsigned operator()(Element root) {
    if (auto known = memo.find(root.getOpaqueValue()); known != memo.end())
      return known->second;
    llvm::SmallVector<std::pair<Element, bool>> stack{{root, false}};
    while (!stack.empty()) {
      auto [element, expanded] = stack.back();
      void *key = element.getOpaqueValue();
      if (expanded) {
        unsigned deepest = 0;
        for (Element child : children(element))
          deepest = std::max(deepest, memo.lookup(child.getOpaqueValue()));
        memo[key] = deepest + 1;
        stack.pop_back();
        continue;
      }
      if (memo.count(key)) {
        stack.pop_back();
        continue;
      }
      stack.back().second = true;
      memo[key] = 0; // in progress
      for (Element child : children(element))
        if (!memo.count(child.getOpaqueValue()))
          stack.push_back({child, false});
    }
    return memo.lookup(root.getOpaqueValue());
  }

private:
  llvm::DenseMap<void *, unsigned> memo;
};

/// The deepest attribute or type `op` holds itself (not in its regions).
unsigned deepestOf(mlir::Operation *op, Depths &depth) {
  unsigned deepest = std::max(depth(of(op->getAttrDictionary())), depth(of(op->getLoc())));
  if (mlir::Attribute properties = op->getPropertiesAsAttribute())
    deepest = std::max(deepest, depth(of(properties)));
  for (mlir::Type type : op->getResultTypes())
    deepest = std::max(deepest, depth(of(type)));
  for (mlir::Region &region : op->getRegions())
    for (mlir::Block &block : region)
      for (mlir::BlockArgument argument : block.getArguments())
        deepest = std::max({deepest, depth(of(argument.getType())), depth(of(argument.getLoc()))});
  return deepest;
}

} // namespace

/// How deeply `op` and everything in it nest: the deepest region level of
/// an op (the root's regions hold level 1) plus the deepest attribute or
/// type that op holds.
extern "C" unsigned pld_ir_depth(MlirOperation root) {
  Depths depth;
  unsigned deepest = 0;
  llvm::SmallVector<std::pair<mlir::Operation *, unsigned>> pending{{unwrap(root), 0}};
  while (!pending.empty()) {
    auto [op, level] = pending.pop_back_val();
    deepest = std::max(deepest, level + deepestOf(op, depth));
    for (mlir::Region &region : op->getRegions())
      for (mlir::Block &block : region)
        for (mlir::Operation &inner : block)
          pending.push_back({&inner, level + 1});
  }
  return deepest;
}
