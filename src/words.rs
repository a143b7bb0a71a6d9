//! How heat writes numbers and counts inside its sentences, the same in
//! every command and view: `4,096`, `1 stored debate`, `2 stored debates`.
//! It imports nothing from heat, so any floor may use it.

/// `4096` as `4,096`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// `n` and a noun that agrees with it: `count(1, "debate", "debates")` is
/// `1 debate`; any other number takes the plural (`0 debates`), with
/// thousands separated.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n as u64), if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_group_by_thousands() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(4096), "4,096");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn a_count_agrees_with_its_noun() {
        assert_eq!(count(1, "stored debate", "stored debates"), "1 stored debate");
        assert_eq!(count(0, "stored debate", "stored debates"), "0 stored debates");
        assert_eq!(count(2, "injected topic", "injected topics"), "2 injected topics");
        assert_eq!(count(12_000, "token", "tokens"), "12,000 tokens");
    }
}
