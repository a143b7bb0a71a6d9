//! Studio drawing costs at 200×50 with three panes each holding 20,000 words
//! of Markdown: a full frame (every widget drawn and diffed), one token
//! appended and drawn (as while streaming: the two unchanged panes are left
//! as shown), ratatui's own cost of a blank frame, and the first layout of
//! the whole transcript; then the same full frame and token with six
//! debaters' panes (a six-seat format, in a 3×2 grid).

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use heat::debate::Heat;
use heat::debate::{DebateEvent, Role, TurnPurpose};
use heat::format::{Format, Origin};
use heat::tui::app::StudioOptions;
use heat::tui::keymap::KeyMap;
use heat::tui::theme::Theme;
use heat::tui::{App, view};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

const ROUNDS: u32 = 10;
const WORDS_PER_TURN: usize = 2_000;

/// About `words` words of Markdown: paragraphs, emphasis, lists, quotes.
fn markdown(words: usize, seed: usize) -> String {
    let mut out = String::new();
    for i in 0..words {
        let word = match (i + seed) % 17 {
            0 => "**strong**",
            5 => "*soft*",
            9 => "`code`",
            _ => "argument",
        };
        out.push_str(word);
        match i % 80 {
            79 if i % 240 == 239 => out.push_str("\n\n- a listed point\n- another point\n\n"),
            79 if i % 400 == 399 => out.push_str("\n\n> a quoted line from the other side\n\n"),
            79 => out.push_str(".\n\n"),
            _ => out.push(' '),
        }
    }
    out
}

/// A duel (`seats` None) or a format of `n` free debaters and no judge.
fn events(six: bool) -> Vec<DebateEvent> {
    let topic = "Remote work beats the office".to_string();
    let mut out = vec![DebateEvent::Started {
        topic: topic.clone(),
        max_rounds: 20,
        initial_heat: Heat::new(0.9),
        participants: vec![],
    }];
    let seats: Vec<Role> = if six {
        let seat = "[[seats]]\nid = \"dN\"\nside = \"free\"\nbrief = \"debater.md\"\n\n";
        let seats: String = (0..6).map(|i| seat.replace('N', &i.to_string())).collect();
        let file = format!("summary = \"six\"\n{seats}[judges]\ncount = 0\n");
        let format = Format::parse("six", &file, &Origin::BuiltIn).expect("the six-seat format parses");
        out.push(DebateEvent::Formatted { format: Box::new(format.record.clone()) });
        format.seats()
    } else {
        Role::DUEL.to_vec()
    };
    for round in 0..ROUNDS {
        out.push(DebateEvent::RoundStarted { round, topic: topic.clone(), heat: Heat::new(0.8), injected: vec![] });
        for (i, role) in seats.iter().copied().enumerate() {
            let purpose = if role == Role::Judge { TurnPurpose::Judge } else { TurnPurpose::Argue };
            out.push(DebateEvent::TurnStarted { round, role, purpose, temperature: Some(0.8) });
            let text = markdown(WORDS_PER_TURN, i + round as usize);
            out.push(DebateEvent::Delta { round, role, text: text.clone() });
            // The last round's advocate is still streaming.
            if !(round == ROUNDS - 1 && role == Role::Advocate) {
                out.push(DebateEvent::TurnCompleted {
                    round,
                    role,
                    text,
                    usage: None,
                    truncated_at: None,
                    possibly_cut: false,
                });
            }
        }
    }
    out
}

fn loaded_app() -> App {
    loaded(false)
}

fn loaded(six: bool) -> App {
    let theme = Theme::load("default", None, false).expect("theme");
    let mut app = App::new(StudioOptions::new(theme, KeyMap::default()));
    app.begin("bench".into());
    for event in events(six) {
        app.on_event(&event);
    }
    app
}

fn terminal() -> Terminal<TestBackend> {
    Terminal::new(TestBackend::new(200, 50)).expect("terminal")
}

fn bench(c: &mut Criterion) {
    let mut app = loaded_app();
    let mut term = terminal();
    let mut retained = view::Retained::default();
    term.draw(|f| heat::tui::render(f, &mut app, &mut retained)).expect("draw");
    // Every pane drawn and diffed: nothing left as the terminal shows it.
    c.bench_function("render/full_frame_200x50_20k_words", |b| {
        b.iter(|| {
            retained.forget();
            term.draw(|f| heat::tui::render(f, black_box(&mut app), &mut retained)).expect("draw");
        });
    });

    // Tokens as a model sends them: words, and a paragraph break every 80.
    // The panes that did not change are left as the terminal shows them.
    let word = DebateEvent::Delta { round: ROUNDS - 1, role: Role::Advocate, text: " word".into() };
    let paragraph = DebateEvent::Delta { round: ROUNDS - 1, role: Role::Advocate, text: ".\n\nNext".into() };
    let mut sent = 0usize;
    c.bench_function("render/append_token_and_draw", |b| {
        b.iter(|| {
            sent += 1;
            app.on_event(black_box(if sent.is_multiple_of(80) { &paragraph } else { &word }));
            term.draw(|f| heat::tui::render(f, &mut app, &mut retained)).expect("draw");
        });
    });

    // ratatui's own share of a frame: a fresh buffer, the diff, the backend.
    let mut bare = terminal();
    c.bench_function("render/baseline_blank_frame_200x50", |b| {
        b.iter(|| {
            bare.draw(|f| {
                let area = f.area();
                f.buffer_mut().set_style(area, ratatui::style::Style::new());
            })
            .expect("draw");
        });
    });

    c.bench_function("render/first_layout_20k_words", |b| {
        b.iter_batched(
            || (loaded_app(), terminal()),
            |(mut app, mut term)| {
                term.draw(|f| heat::tui::render(f, &mut app, &mut view::Retained::default()))
                    .map(|_| ())
                    .expect("draw");
            },
            BatchSize::LargeInput,
        );
    });

    // Six debaters' panes of 20k words each, in a 3×2 grid.
    let mut app = loaded(true);
    let mut term = terminal();
    let mut retained = view::Retained::default();
    term.draw(|f| heat::tui::render(f, &mut app, &mut retained)).expect("draw");
    c.bench_function("render/full_frame_200x50_6_panes_20k_words", |b| {
        b.iter(|| {
            retained.forget();
            term.draw(|f| heat::tui::render(f, black_box(&mut app), &mut retained)).expect("draw");
        });
    });
    let mut sent = 0usize;
    c.bench_function("render/append_token_and_draw_6_panes", |b| {
        b.iter(|| {
            sent += 1;
            app.on_event(black_box(if sent.is_multiple_of(80) { &paragraph } else { &word }));
            term.draw(|f| heat::tui::render(f, &mut app, &mut retained)).expect("draw");
        });
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
