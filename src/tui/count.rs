//! A count and its noun, said right wherever the studio says one: "1
//! injected topic", "2 injected topics", "12,345 characters".

/// `n` and `noun`, the noun plural unless `n` is one, the number grouped
/// in thousands: `counted(2, "injected topic")` is "2 injected topics".
pub fn counted(n: usize, noun: &str) -> String {
    format!("{} {}", grouped(n), plural(n, noun))
}

/// `noun` as `n` of it are called: "topic", "topics". The studio's nouns
/// all take an `s`.
pub fn plural(n: usize, noun: &str) -> String {
    if n == 1 { noun.to_string() } else { format!("{noun}s") }
}

/// `n` with a comma between thousands: "12,345".
pub fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(counted(0, "injected topic"), "0 injected topics");
        assert_eq!(counted(1, "injected topic"), "1 injected topic");
        assert_eq!(counted(2, "injected topic"), "2 injected topics");
        assert_eq!(counted(12_345, "character"), "12,345 characters");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1_000_000), "1,000,000");
    }
}
