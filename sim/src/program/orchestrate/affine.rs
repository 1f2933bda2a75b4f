//! Evaluating the size maps a `pld.comm_domain` records
//! (`affine_map<()[s0] -> (((s0 * 4 + 31) floordiv 32) * 32 + 16384)>`,
//! with `s0` the world size), read from their printed form.

/// The value of the single result of `map` (its printed text) for symbol
/// `s0 = world`.
pub fn evaluate(map: &str, world: i64) -> Result<i64, String> {
    let body = map
        .trim()
        .strip_prefix("affine_map<")
        .and_then(|m| m.strip_suffix('>'))
        .and_then(|m| m.split_once("->"))
        .map(|(_, result)| result.trim())
        .ok_or_else(|| format!("{map} is not an affine map"))?;
    let body = body
        .strip_prefix('(')
        .and_then(|b| b.strip_suffix(')'))
        .ok_or_else(|| format!("{map} has no single result"))?;
    let mut parser = Parser {
        text: body.as_bytes(),
        pos: 0,
        world,
    };
    let value = parser.sum()?;
    parser.skip();
    if parser.pos != parser.text.len() {
        return Err(format!("cannot read the affine map {map}"));
    }
    Ok(value)
}

struct Parser<'t> {
    text: &'t [u8],
    pos: usize,
    world: i64,
}

impl Parser<'_> {
    fn skip(&mut self) {
        while self.text.get(self.pos) == Some(&b' ') {
            self.pos += 1;
        }
    }

    fn keyword(&mut self, word: &str) -> bool {
        self.skip();
        if self.text[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            true
        } else {
            false
        }
    }

    fn sum(&mut self) -> Result<i64, String> {
        let mut value = self.product()?;
        loop {
            if self.keyword("+") {
                value = value
                    .checked_add(self.product()?)
                    .ok_or("the size overflows a 64-bit integer")?;
            } else if self.keyword("-") {
                value = value
                    .checked_sub(self.product()?)
                    .ok_or("the size overflows a 64-bit integer")?;
            } else {
                return Ok(value);
            }
        }
    }

    fn product(&mut self) -> Result<i64, String> {
        let mut value = self.atom()?;
        loop {
            if self.keyword("*") {
                value = value
                    .checked_mul(self.atom()?)
                    .ok_or("the size overflows a 64-bit integer")?;
            } else if self.keyword("floordiv") {
                let d = self.divisor()?;
                value = value.div_euclid(d);
            } else if self.keyword("ceildiv") {
                let d = self.divisor()?;
                value = -(-value).div_euclid(d);
            } else if self.keyword("mod") {
                let d = self.divisor()?;
                value = value.rem_euclid(d);
            } else {
                return Ok(value);
            }
        }
    }

    fn divisor(&mut self) -> Result<i64, String> {
        match self.atom()? {
            0 => Err("division by zero in an affine map".into()),
            d => Ok(d),
        }
    }

    fn atom(&mut self) -> Result<i64, String> {
        self.skip();
        if self.keyword("(") {
            let value = self.sum()?;
            if !self.keyword(")") {
                return Err("unbalanced parentheses in an affine map".into());
            }
            return Ok(value);
        }
        if self.keyword("s0") {
            return Ok(self.world);
        }
        if self.keyword("-") {
            return Ok(-self.atom()?);
        }
        let start = self.pos;
        while self.text.get(self.pos).is_some_and(u8::is_ascii_digit) {
            self.pos += 1;
        }
        std::str::from_utf8(&self.text[start..self.pos])
            .ok()
            .and_then(|digits| digits.parse().ok())
            .ok_or_else(|| "cannot read a term of an affine map".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::evaluate;

    #[test]
    fn evaluates_the_domain_size_maps() {
        let aligned = "affine_map<()[s0] -> (((s0 * 4 + 31) floordiv 32) * 32 + 16384)>";
        // 4 ranks: 16 bytes of signal, aligned to 32, plus the data.
        assert_eq!(evaluate(aligned, 4), Ok(32 + 16384));
        assert_eq!(evaluate(aligned, 9), Ok(64 + 16384));
        assert_eq!(evaluate("affine_map<()[s0] -> (16384)>", 3), Ok(16384));
        assert_eq!(evaluate("affine_map<()[s0] -> (s0 * 4)>", 8), Ok(32));
        assert_eq!(
            evaluate("affine_map<()[s0] -> (s0 ceildiv 4 - 1)>", 9),
            Ok(2)
        );
        assert_eq!(evaluate("affine_map<()[s0] -> (s0 mod 3)>", 8), Ok(2));
        assert!(evaluate("affine_map<()[s0] -> (s0 floordiv 0)>", 8).is_err());
        assert!(evaluate("#pld.dist", 8).is_err());
        assert!(evaluate("affine_map<()[s0] -> (s0 +)>", 8).is_err());
    }
}
