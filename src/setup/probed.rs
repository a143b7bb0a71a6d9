//! What servers said when probed, kept for a minute in a process that runs
//! many debates against them (a tournament, `heat mcp`), so each debate's
//! set-up does not ask every server again for its model list and limits.
//! Off unless [`keep`] turns it on: a studio or a single debate asks each
//! time, and so do tests that start servers on ports another had used.
//! Only answers are kept: a server that did not answer is asked again.

use std::any::Any;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long an answer is kept.
pub const KEPT_FOR: Duration = Duration::from_secs(60);

static ON: AtomicBool = AtomicBool::new(false);

type Kept = HashMap<u64, (Instant, Box<dyn Any + Send>)>;

static KEPT: Mutex<Option<Kept>> = Mutex::new(None);

/// Keeps what servers answer, from now on in this process.
pub fn keep() {
    ON.store(true, Ordering::Relaxed);
}

/// What `ask` answers for `key` (the probe and everything that decides its
/// answer: the address, the key, the headers), kept for `kept_for` when
/// [`keep`] is on and `answered` says it answered.
pub async fn remembered<T: Clone + Send + 'static>(
    key: &impl Hash,
    kept_for: Duration,
    ask: impl Future<Output = T>,
    answered: impl Fn(&T) -> bool,
) -> T {
    if !ON.load(Ordering::Relaxed) {
        return ask.await;
    }
    let mut hasher = DefaultHasher::new();
    key.hash(&mut hasher);
    let key = hasher.finish();
    let now = Instant::now();
    {
        let kept = KEPT.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((at, said)) = kept.as_ref().and_then(|k| k.get(&key))
            && now.duration_since(*at) < kept_for
            && let Some(said) = said.downcast_ref::<T>()
        {
            return said.clone();
        }
    }
    let said = ask.await;
    if answered(&said) {
        let mut kept = KEPT.lock().unwrap_or_else(PoisonError::into_inner);
        kept.get_or_insert_default().insert(key, (now, Box::new(said.clone())));
    }
    said
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU32;

    #[tokio::test]
    async fn an_answer_is_kept_once_on_and_a_failure_never() {
        static ASKED: AtomicU32 = AtomicU32::new(0);
        let ask = |answer: Result<u32, ()>| async move {
            ASKED.fetch_add(1, Ordering::Relaxed);
            answer
        };
        let key = ("probed-test", "http://127.0.0.1:1/v1");
        // Off: asked each time.
        remembered(&key, KEPT_FOR, ask(Ok(1)), Result::is_ok).await.ok();
        remembered(&key, KEPT_FOR, ask(Ok(1)), Result::is_ok).await.ok();
        assert_eq!(ASKED.load(Ordering::Relaxed), 2);
        keep();
        assert_eq!(remembered(&key, KEPT_FOR, ask(Ok(7)), Result::is_ok).await, Ok(7));
        assert_eq!(remembered(&key, KEPT_FOR, ask(Ok(8)), Result::is_ok).await, Ok(7), "kept");
        assert_eq!(ASKED.load(Ordering::Relaxed), 3);
        assert_eq!(remembered(&key, Duration::ZERO, ask(Ok(9)), Result::is_ok).await, Ok(9), "kept no longer");
        let other = ("probed-test", "http://127.0.0.1:2/v1");
        assert_eq!(remembered(&other, KEPT_FOR, ask(Err(())), Result::is_ok).await, Err(()));
        assert_eq!(remembered(&other, KEPT_FOR, ask(Ok(3)), Result::is_ok).await, Ok(3), "a failure is not kept");
        assert_eq!(ASKED.load(Ordering::Relaxed), 6);
    }
}
