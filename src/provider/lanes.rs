//! Which of the offline model's contexts ("lanes") serves a request. Each
//! lane keeps the prompt it last served in its KV cache, so a request goes
//! back to the lane that last served the same system prompt (a role's next
//! turn reuses its own prefix); a request whose lane is busy takes a free
//! one rather than wait, so the two debaters generate side by side.

/// The routing state: what each lane last served, and when.
#[derive(Debug, Clone)]
pub struct Router {
    lanes: Vec<Lane>,
    clock: u64,
}

#[derive(Debug, Clone, Copy, Default)]
struct Lane {
    /// The system prompt (hashed) of the lane's last request; `None` until it serves one.
    affinity: Option<u64>,
    last_used: u64,
}

impl Router {
    pub fn new(lanes: usize) -> Self {
        Router { lanes: vec![Lane::default(); lanes.max(1)], clock: 0 }
    }

    /// Picks the lane for a request keyed `key`, given how many requests
    /// each lane has queued or running (`busy`, one entry per lane). In
    /// order: an idle lane that served this key, a lane never used, the idle
    /// lane used longest ago, a busy lane that served this key, the least
    /// loaded lane.
    pub fn pick(&mut self, key: u64, busy: &[usize]) -> usize {
        let lanes = &self.lanes;
        let idle = |i: &usize| busy.get(*i).copied().unwrap_or(0) == 0;
        let ours = |i: &usize| lanes[*i].affinity == Some(key);
        let all = || 0..lanes.len();
        let choice = all()
            .find(|i| idle(i) && ours(i))
            .or_else(|| all().find(|i| lanes[*i].affinity.is_none()))
            .or_else(|| all().filter(idle).min_by_key(|i| lanes[*i].last_used))
            .or_else(|| all().find(ours))
            .or_else(|| all().min_by_key(|i| (busy.get(*i).copied().unwrap_or(0), lanes[*i].last_used)))
            .unwrap_or(0);
        self.clock += 1;
        self.lanes[choice] = Lane { affinity: Some(key), last_used: self.clock };
        choice
    }
}

/// The routing key of a system prompt.
pub fn key(system: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    system.hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    const ADVOCATE: u64 = 1;
    const SKEPTIC: u64 = 2;
    const JUDGE: u64 = 3;

    #[test]
    fn each_role_keeps_its_own_lane_round_after_round() {
        let mut router = Router::new(3);
        let mut seen = Vec::new();
        for _ in 0..4 {
            // The debaters are dispatched together; the judge once both are done.
            let a = router.pick(ADVOCATE, &[0, 0, 0]);
            let mut busy = [0; 3];
            busy[a] = 1;
            let s = router.pick(SKEPTIC, &busy);
            let j = router.pick(JUDGE, &[0, 0, 0]);
            seen.push((a, s, j));
        }
        assert_eq!(seen, vec![(0, 1, 2); 4]);
    }

    #[test]
    fn two_requests_at_once_go_side_by_side_even_with_one_key() {
        let mut router = Router::new(2);
        assert_eq!(router.pick(ADVOCATE, &[0, 0]), 0);
        assert_eq!(router.pick(ADVOCATE, &[1, 0]), 1);
    }

    #[test]
    fn with_more_keys_than_lanes_the_idle_lane_used_longest_ago_is_taken() {
        let mut router = Router::new(2);
        assert_eq!(router.pick(ADVOCATE, &[0, 0]), 0);
        assert_eq!(router.pick(SKEPTIC, &[1, 0]), 1);
        // Both idle; the judge takes the advocate's lane (used first).
        assert_eq!(router.pick(JUDGE, &[0, 0]), 0);
        // The advocate's lane now holds the judge: it takes the idle lane used
        // longest ago, the skeptic's.
        assert_eq!(router.pick(ADVOCATE, &[0, 0]), 1);
    }

    #[test]
    fn a_busy_lane_of_the_same_key_is_waited_for_when_no_lane_is_idle() {
        let mut router = Router::new(2);
        router.pick(ADVOCATE, &[0, 0]);
        router.pick(SKEPTIC, &[1, 0]);
        assert_eq!(router.pick(SKEPTIC, &[1, 1]), 1);
        assert_eq!(router.pick(JUDGE, &[1, 3]), 0, "no lane of its own: the least loaded");
    }

    #[test]
    fn one_lane_serves_everything() {
        let mut router = Router::new(1);
        assert_eq!(router.pick(ADVOCATE, &[0]), 0);
        assert_eq!(router.pick(SKEPTIC, &[1]), 0);
        assert_eq!(router.pick(JUDGE, &[2]), 0);
        assert_eq!(Router::new(0).pick(JUDGE, &[]), 0);
    }

    #[test]
    fn keys_tell_system_prompts_apart() {
        assert_eq!(key("You argue for."), key("You argue for."));
        assert_ne!(key("You argue for."), key("You argue against."));
    }
}
