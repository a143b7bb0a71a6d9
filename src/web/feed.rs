//! The debate as the page is told it: the log's events folded and turned
//! into page items, kept as a compact history (a turn's streamed words
//! joined, a tally or the voting rounds replaced) for a page that connects
//! late, and sent to every connected page as each batch comes. A slow page
//! never holds the feed back: it falls behind its channel, is dropped, and
//! its browser connects again to the history.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::broadcast;

use super::page::{self, Item};
use crate::debate::audience;
use crate::debate::{DebateEvent, DebateState, Role};

/// How many batches a page may fall behind before it is dropped.
const BEHIND: usize = 512;

/// The debate as told so far, shared by the follower and every page.
pub struct Feed {
    told: Mutex<Told>,
}

struct Told {
    state: DebateState,
    /// Whether a heat holds the log (records ballots) now.
    live: bool,
    history: Vec<Item>,
    /// Where in `history` each turn's words, each round's tally and the voting rounds are.
    turns: HashMap<(u32, Role), usize>,
    tallies: HashMap<u32, usize>,
    voting: Option<usize>,
    pages: broadcast::Sender<Arc<str>>,
}

/// What a page voting needs to know: the rounds (from 0) taking ballots,
/// and the debate's sides.
pub struct Polls {
    pub open: Vec<u32>,
    pub sides: Vec<Role>,
}

impl Feed {
    /// The feed of a debate whose log holds `events`; `live` when a heat
    /// records it now.
    pub fn new<'a>(events: impl IntoIterator<Item = &'a DebateEvent>, live: bool) -> Arc<Feed> {
        let (pages, _) = broadcast::channel(BEHIND);
        let told = Told {
            state: DebateState::default(),
            live,
            history: Vec::new(),
            turns: HashMap::new(),
            tallies: HashMap::new(),
            voting: None,
            pages,
        };
        let feed = Arc::new(Feed { told: Mutex::new(told) });
        feed.tell(events);
        feed
    }

    fn lock(&self) -> MutexGuard<'_, Told> {
        // A page's panic mid-update leaves items, not broken invariants: go on with them.
        self.told.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Folds `events` and tells every page what they make.
    pub fn tell<'a>(&self, events: impl IntoIterator<Item = &'a DebateEvent>) {
        let mut told = self.lock();
        let mut batch = Vec::new();
        for event in events {
            told.state.apply(event);
            batch.extend(page::items(&told.state, event));
        }
        batch.extend(told.voting_changed());
        told.send(&batch);
    }

    /// Whether a heat holds the log now: the rounds open to ballots follow.
    pub fn set_live(&self, live: bool) {
        let mut told = self.lock();
        if told.live != live {
            told.live = live;
            let batch: Vec<Item> = told.voting_changed().into_iter().collect();
            told.send(&batch);
        }
    }

    /// Everything told so far (a JSON array), and the batches to come.
    pub fn subscribe(&self) -> (String, broadcast::Receiver<Arc<str>>) {
        let told = self.lock();
        let history = serde_json::to_string(&told.history).unwrap_or_else(|_| "[]".into());
        (history, told.pages.subscribe())
    }

    /// The rounds taking ballots, and the sides.
    pub fn polls(&self) -> Polls {
        let told = self.lock();
        Polls { open: told.open(), sides: told.state.debaters().to_vec() }
    }
}

impl Told {
    fn open(&self) -> Vec<u32> {
        if self.live { audience::open_rounds(&self.state) } else { Vec::new() }
    }

    /// The voting item, when the open rounds are not the ones last told.
    fn voting_changed(&self) -> Option<Item> {
        let item = page::voting(&self.open());
        let last = self.voting.and_then(|at| self.history.get(at));
        (last != Some(&item)).then_some(item)
    }

    /// Keeps `batch` in the history and sends it to every page.
    fn send(&mut self, batch: &[Item]) {
        if batch.is_empty() {
            return;
        }
        for item in batch {
            self.keep(item);
        }
        if let Ok(json) = serde_json::to_string(batch) {
            // No page connected is no error.
            let _ = self.pages.send(json.into());
        }
    }

    /// Adds `item` to the history: a turn's words joined, a tally and the
    /// voting rounds replaced, the debate's header replaced.
    fn keep(&mut self, item: &Item) {
        let at = match item {
            Item::Text { round, role, text } => {
                if let Some(Item::Text { text: kept, .. }) =
                    self.turns.get(&(*round, *role)).and_then(|at| self.history.get_mut(*at))
                {
                    kept.push_str(text);
                    return;
                }
                self.turns.get(&(*round, *role)).copied()
            }
            Item::Said { round, role, .. } => self.turns.get(&(*round, *role)).copied(),
            Item::Audience { round, .. } => self.tallies.get(round).copied(),
            Item::Voting { .. } => self.voting,
            Item::Debate { .. } => self.history.iter().position(|i| matches!(i, Item::Debate { .. })),
            _ => None,
        };
        let at = if let Some(at) = at {
            self.history[at] = item.clone();
            at
        } else {
            self.history.push(item.clone());
            self.history.len() - 1
        };
        match *item {
            Item::Text { round, role, .. } | Item::Said { round, role, .. } => {
                self.turns.insert((round, role), at);
            }
            Item::Audience { round, .. } => {
                self.tallies.insert(round, at);
            }
            Item::Voting { .. } => self.voting = Some(at),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debate::Heat;
    use crate::debate::audience::Ballot;

    #[test]
    fn a_late_page_gets_the_story_compacted_and_then_each_batch() {
        let started = DebateEvent::Started {
            topic: "Tea".into(),
            max_rounds: 2,
            initial_heat: Heat::new(0.7),
            participants: Vec::new(),
        };
        let round =
            DebateEvent::RoundStarted { round: 0, topic: "Tea?".into(), heat: Heat::new(0.7), injected: Vec::new() };
        let delta = |text: &str| DebateEvent::Delta { round: 0, role: Role::Advocate, text: text.into() };
        let feed = Feed::new(&[started, round, delta("Tea "), delta("calms.")], true);
        let (history, mut pages) = feed.subscribe();
        let items: Vec<serde_json::Value> = serde_json::from_str(&history).expect("json");
        let kinds: Vec<&str> = items.iter().filter_map(|i| i["k"].as_str()).collect();
        assert_eq!(kinds, ["debate", "round", "text", "voting"], "{history}");
        assert_eq!(items[2]["text"], "Tea calms.");
        assert_eq!(items[3]["rounds"], serde_json::json!([1]));
        let voted = DebateEvent::AudienceVoted {
            round: 0,
            ballots: vec![Ballot { voter: "00000000000a".into(), side: Some(Role::Skeptic) }],
        };
        feed.tell([&voted]);
        let batch = pages.try_recv().expect("the batch is sent");
        assert!(batch.contains("\"counts\":{\"advocate\":0,\"skeptic\":1}"), "{batch}");
        feed.set_live(false);
        let batch = pages.try_recv().expect("voting closes when no heat holds the log");
        assert_eq!(&*batch, "[{\"k\":\"voting\",\"rounds\":[]}]");
        assert!(feed.polls().open.is_empty());
    }
}
