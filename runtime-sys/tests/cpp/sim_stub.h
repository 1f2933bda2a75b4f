// Test-only simulator for the builtin-kernel check: ranks are threads of
// this process, each with a real window and a CommContext holding real
// addresses. sim_stub.cpp implements pld_sim.h on top of it.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "pld/comm_context.h"

struct SimRank {
  int id = 0;
  uint8_t *window = nullptr;
  size_t win_size = 0;
  PldCommContext ctx{};
  std::mutex mu;
  std::vector<std::string> logs;
  std::vector<std::pair<int, std::string>> fatals;
  std::vector<std::string> errors;  // bounds violations and other bugs
  std::atomic<uint64_t> remote_read{0};
  std::atomic<uint64_t> remote_written{0};
  std::atomic<uint64_t> notifies{0};
  bool record_remote_writes = false;
  std::vector<std::pair<int, uint64_t>> remote_writes;  // (owner rank, window offset)
};

struct SimWorld {
  std::vector<std::unique_ptr<SimRank>> ranks;
  std::atomic<bool> deadlocked{false};
  std::mutex mu;
  std::string deadlock_report;
  int deadlock_ms = 3000;
};

// Creates P ranks with zeroed windows of `win_size` bytes (32-byte aligned,
// base addresses far apart).
void sim_world_create(SimWorld &w, int P, size_t win_size);
void sim_world_destroy(SimWorld &w);
// Binds / unbinds the calling thread to a rank (the "submitting thread").
void sim_bind_thread(SimWorld &w, SimRank *rank);
void sim_unbind_thread();
