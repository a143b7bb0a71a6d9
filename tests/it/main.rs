//! heat's integration tests, gathered in one test binary: each module was
//! once a binary of its own that linked the whole crate. Shared set-up lives
//! in the `*_support` modules; `cargo test --test it MODULE::` runs one file.
// A test that unwraps fails with the value it met: what a test should do.
#![allow(clippy::unwrap_used)]

mod engine_support;
mod model_support;
mod studio_support;
mod support;

mod answer;
mod architecture;
mod cli_branch;
mod cli_formats;
mod cli_report;
mod cli_run;
mod cli_sessions;
mod demo;
mod doctor;
mod engine;
mod engine_chosen_judge;
mod engine_grounding;
mod engine_guards;
mod engine_panel;
mod engine_pause;
mod engine_swap;
mod engine_vote;
mod error_paths;
mod export;
mod guard_props;
mod heard;
mod kill;
mod local_model;
mod model_fetch;
mod offline_debate;
mod plan;
mod print;
mod prompt_golden;
mod providers_anthropic;
mod providers_openai;
mod quote_props;
mod reducer_props;
mod report;
mod report_browser;
mod retry_timing;
mod score_props;
mod servers_in_the_wild;
mod servers_second_round;
mod shell_completion;
mod soak;
mod store;
mod studio_copy;
mod studio_frames;
mod studio_freepanel;
mod studio_hints;
mod studio_keys;
mod studio_panel;
mod studio_pause;
mod studio_pty;
mod studio_pty_copy;
mod studio_pty_interrupt;
mod studio_pty_panel;
mod studio_pty_replay;
mod studio_pty_settings;
mod studio_pty_watch;
mod studio_replay;
mod studio_review;
mod studio_search;
mod studio_settings;
mod studio_stats;
mod studio_view;
mod studio_vote;
mod v1_logs;
mod verdict_caps;
mod vote_props;
mod watch;
