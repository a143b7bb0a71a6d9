//! Where a pane's view stands: parked at a line, or following its
//! stream's end, by half-pane blocks or line by line (`ui.follow`); and the
//! first line each shows.

/// Where a pane is scrolled: following the stream's end, or parked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scroll {
    pub offset: usize,
    pub follow: bool,
}

impl Default for Scroll {
    fn default() -> Self {
        Scroll { offset: 0, follow: true }
    }
}

impl Scroll {
    /// The first line shown in a viewport of `height` rows over `total`
    /// lines. Following by blocks, it moves in steps of half the viewport,
    /// so the last line may sit above the bottom row until the text
    /// reaches it.
    pub fn top(self, by: Follow, total: usize, height: usize) -> usize {
        let max = total.saturating_sub(height);
        match (self.follow, by) {
            (false, _) => self.offset.min(max),
            (true, Follow::Lines) => max,
            (true, Follow::Blocks) => {
                let block = (height / 2).max(1);
                max.div_ceil(block) * block
            }
        }
    }
}

/// How a pane that follows its stream moves as the text grows past its
/// bottom (`ui.follow`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Follow {
    /// By half a pane at a time: the text under a reader's eyes stays
    /// still between jumps, and the terminal redraws the pane once a block
    /// instead of once a line.
    #[default]
    Blocks,
    /// A line at a time, the newest line always on the last row.
    Lines,
}

impl Follow {
    /// The setting's word (`ui.follow`: "blocks" or "lines").
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "blocks" => Some(Follow::Blocks),
            "lines" => Some(Follow::Lines),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parked_view_stays_and_a_following_one_moves_by_blocks_or_lines() {
        let parked = Scroll { offset: 7, follow: false };
        assert_eq!(parked.top(Follow::Blocks, 100, 10), 7);
        assert_eq!(parked.top(Follow::Blocks, 12, 10), 2, "never past the end");
        let following = Scroll::default();
        assert_eq!(following.top(Follow::Lines, 23, 10), 13, "the newest line on the last row");
        assert_eq!(following.top(Follow::Blocks, 23, 10), 15, "lines 15 to 22 shown, two rows free");
        assert_eq!(following.top(Follow::Blocks, 25, 10), 15, "the view stands still as it fills");
        assert_eq!(following.top(Follow::Blocks, 26, 10), 20, "then moves half a pane");
        assert_eq!(following.top(Follow::Blocks, 8, 10), 0);
        assert_eq!(following.top(Follow::Blocks, 3, 1), 2, "a one-row pane moves a row at a time");
    }
}
