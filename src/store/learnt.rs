//! What earlier debates learnt about the servers they talked to: the
//! `endpoint_adapted` events of the most recent session logs, found line by
//! line without folding the debates (a log is mostly streamed text).

use std::io::BufRead;

use super::Store;
use super::log::Record;
use crate::debate::DebateEvent;
use crate::provider::Adaptation;

/// One lasting change a debate learnt about an endpoint.
#[derive(Debug, Clone, PartialEq)]
pub struct Learnt {
    /// The endpoint as the providers key it (`openai http://host/v1`).
    pub endpoint: String,
    pub adaptation: Adaptation,
    /// The debate that learnt it.
    pub session: String,
}

impl Store {
    /// What the `recent` newest debates learnt about their servers, newest
    /// first. A log that cannot be read, or a line that is not a record,
    /// is passed over: this is advice, not the debate.
    pub fn learnt(&self, recent: usize) -> Vec<Learnt> {
        let mut found = Vec::new();
        for entry in self.list().into_iter().take(recent) {
            let Ok(file) = std::fs::File::open(self.log_path(&entry.id)) else { continue };
            for line in std::io::BufReader::new(file).lines().map_while(Result::ok) {
                if !line.contains("\"endpoint_adapted\"") {
                    continue;
                }
                if let Ok(Record { event: DebateEvent::EndpointAdapted { endpoint, adaptation, .. }, .. }) =
                    serde_json::from_str::<Record>(&line)
                {
                    found.push(Learnt { endpoint, adaptation, session: entry.id.clone() });
                }
            }
        }
        found
    }
}
