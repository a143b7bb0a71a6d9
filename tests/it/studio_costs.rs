//! `$` in the studio: each seat's calls, tokens and cost, a total and each
//! round's; a seat without a price says "no price" and the dialog names the
//! keys that set one, nothing guessed; Esc closes it.

use crate::studio_support;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use heat::debate::Role;
use heat::debate::cost::Price;
use heat::tui::App;
use heat::tui::modal::Modal;
use studio_support::*;

fn press(app: &mut App, code: KeyCode) {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
}

#[test]
fn dollar_shows_each_seats_tokens_and_cost_and_names_what_has_no_price() {
    // Round 1 judged: each of the three turns reported 1,200 tokens in and 340 out.
    let mut app = resolved_with(|options| {
        for entry in &mut options.roster {
            if entry.role != Role::Judge {
                entry.price = Some(Price { input: 1.0, output: 2.0, cached_input: None });
            }
        }
    });
    press(&mut app, KeyCode::Char('$'));
    assert!(matches!(app.modal, Some(Modal::Costs)));
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("Tokens and cost"), "{text}");
    let line = |name: &str| text.lines().find(|l| l.contains(&format!("│  {name} "))).unwrap_or_default().to_string();
    // 1,200 × $1 + 340 × $2 per million: $0.00188.
    assert!(line("Advocate").contains("1.2k") && line("Advocate").contains("$0.0019"), "{text}");
    assert!(line("Judge").contains("no price"), "{text}");
    assert!(line("Total").contains("3.6k") && line("Total").contains("no price"), "unknown stays unknown:\n{text}");
    assert!(line("Round 1").contains("3.6k"), "{text}");
    assert!(text.contains("No price for roles.judge"), "{text}");
    press(&mut app, KeyCode::Char('x'));
    assert!(matches!(app.modal, Some(Modal::Costs)), "a key that is no action leaves it open");
    press(&mut app, KeyCode::Esc);
    assert!(app.modal.is_none());
}
