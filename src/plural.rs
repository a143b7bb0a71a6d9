//! A count said with its noun: `1 stored debate`, `2 stored debates`. The
//! one rule every sentence with a count follows.

/// `n` and `noun`, the noun plural unless `n` is 1 (`es` after s, x, z, ch
/// and sh; `s` after anything else).
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        return format!("1 {noun}");
    }
    let es = ["s", "x", "z", "ch", "sh"].iter().any(|end| noun.ends_with(end));
    format!("{n} {noun}{}", if es { "es" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(1, "stored debate"), "1 stored debate");
        assert_eq!(count(0, "session"), "0 sessions");
        assert_eq!(count(2, "branch"), "2 branches");
        assert_eq!(count(3, "round"), "3 rounds");
    }
}
