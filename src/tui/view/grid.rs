//! Where the panes of the seats that sit go on a wide screen: up to three
//! side by side (the duel's advocate, skeptic and judge; a vote's three
//! debaters), more in two rows (four as 2×2, five or six as 3×2, the first
//! row taking the odd one).

use ratatui::layout::{Constraint, Layout, Rect};

use crate::debate::Role;

/// The most panes drawn in one row.
const ONE_ROW: usize = 3;

/// Each seat's pane area in `body`, by its row in per-seat tables
/// (`Role::position`); a seat that does not sit gets an empty one.
pub fn areas(body: Rect, seats: &[Role]) -> [Rect; Role::COUNT] {
    let mut panes = [Rect::default(); Role::COUNT];
    let rows = row_lengths(seats.len());
    let row_areas = Layout::vertical(vec![Constraint::Ratio(1, rows.len() as u32); rows.len()]).split(body);
    let mut seats = seats.iter();
    for (&length, &row) in rows.iter().zip(row_areas.iter()) {
        let cells = Layout::horizontal(vec![Constraint::Ratio(1, length as u32); length]).split(row);
        for (&cell, role) in cells.iter().zip(seats.by_ref()) {
            panes[role.position()] = cell;
        }
    }
    panes
}

/// How many panes each row holds: one row of up to three, else two rows,
/// the first taking the odd one.
fn row_lengths(panes: usize) -> Vec<usize> {
    match panes {
        0 => Vec::new(),
        1..=ONE_ROW => vec![panes],
        _ => vec![panes.div_ceil(2), panes / 2],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: Rect = Rect { x: 0, y: 2, width: 120, height: 36 };

    /// The seats' areas in screen order, and how many panes are drawn.
    fn placed(seats: &[Role]) -> (Vec<Rect>, usize) {
        let panes = areas(BODY, seats);
        (seats.iter().map(|r| panes[r.position()]).collect(), panes.iter().filter(|r| !r.is_empty()).count())
    }

    #[test]
    fn the_duel_sits_side_by_side_as_three_thirds() {
        let (panes, drawn) = placed(&[Role::Advocate, Role::Skeptic, Role::Judge]);
        let thirds: [Rect; 3] = Layout::horizontal([Constraint::Ratio(1, 3); 3]).areas(BODY);
        assert_eq!(panes, thirds);
        assert_eq!(drawn, 3);
    }

    #[test]
    fn four_make_a_square_and_six_two_rows_of_three() {
        let (four, drawn) = placed(&[Role::Advocate, Role::Skeptic, Role::Third, Role::Judge]);
        assert_eq!(four.iter().map(|r| (r.x, r.y)).collect::<Vec<_>>(), [(0, 2), (60, 2), (0, 20), (60, 20)]);
        assert_eq!(drawn, 4);
        let (six, drawn) = placed(&Role::DEBATER_SEATS);
        assert_eq!(
            six.iter().map(|r| (r.x, r.y)).collect::<Vec<_>>(),
            [(0, 2), (40, 2), (80, 2), (0, 20), (40, 20), (80, 20)]
        );
        assert_eq!(drawn, 6, "no judge sits");
    }

    #[test]
    fn five_put_the_odd_one_in_the_first_row() {
        let (five, _) = placed(&[Role::Advocate, Role::Skeptic, Role::Third, Role::Fourth, Role::Judge]);
        assert_eq!(five.iter().map(|r| r.width).collect::<Vec<_>>(), [40, 40, 40, 60, 60]);
    }
}
