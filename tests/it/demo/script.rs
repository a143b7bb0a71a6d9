//! The demo debate's script: every word the three roles say, the person's
//! steering and where it comes, the one refused request, and how fast each
//! turn streams. Written for a projector; no model wrote any of it.

use heat::debate::Heat;
use heat::debate::{Command, Role};

pub const PROPOSITION: &str = "Remote work beats the office for software teams";
/// More rounds than are played: the person forces the resolution in round 4.
pub const MAX_ROUNDS: u32 = 5;
pub const INITIAL_HEAT: f32 = 0.9;

/// The note the person injects while round 2 is argued.
pub const INJECTED: &str = "How do junior developers learn when nobody sits next to them?";

/// The round (from 0) whose skeptic is refused once with a 429, and the
/// wait the server asks for, in seconds.
pub const RATE_LIMITED_ROUND: usize = 1;
pub const RETRY_AFTER_SECS: u64 = 2;

/// Steering the person sends once a debater has streamed this many chunks
/// of a round (rounds from 0).
pub struct Cue {
    pub round: u32,
    pub role: Role,
    pub after_chunks: usize,
    pub command: Command,
}

pub fn cues() -> Vec<Cue> {
    let cue = |round, role, after_chunks, command| Cue { round, role, after_chunks, command };
    vec![
        cue(1, Role::Advocate, 60, Command::InjectTopic(INJECTED.into())),
        cue(2, Role::Skeptic, 70, Command::PinTemperature(Heat::new(0.5))),
        cue(3, Role::Advocate, 30, Command::ReleaseTemperature),
        cue(3, Role::Skeptic, 90, Command::ForceResolution),
    ]
}

/// A judge's answer to one round, as the JSON object it streams.
pub struct Judged {
    pub resolved: bool,
    pub verdict: &'static str,
    pub topic: &'static str,
    pub heat: f32,
}

/// The arguments, round by round. Advocate and skeptic argue at the same
/// time, so each answers what the other said the round before.
pub const ADVOCATE: [&str; 4] = [
    "\
Remote work gives a software team three things an office struggles to offer.

- **Long stretches of focus.** Programming rewards hours without interruption. At home a developer decides when to \
    be reachable; in an open-plan office, every passing question decides for them.
- **A wider hiring pool.** A team that does not need everyone within commuting distance of one building can hire \
    the best person it finds, not the best person who lives nearby, and keep people who move.
- **A written memory.** Remote teams have to write things down: design documents, decision records, review \
    comments. The reasoning behind a decision can be found months later by someone who was not in the room, \
    because there was no room.

Think of a typical architecture change. In an office it is settled at a whiteboard, and a photo of the \
    whiteboard is all that survives. On a remote team it is a document anyone can read, question and search.",
    "\
The skeptic's two-minute answer at the next desk is real, and I will not pretend a message is as fast. But the \
    comparison leaves out who pays. The person who turns round to answer loses their own train of thought, and \
    anyone not sitting nearby never hears the answer. The next person with the same failing build asks again.

Remote teams that work well do not leave urgent problems to threads. They keep a simple norm: stuck for more \
    than a few minutes, start a call, share your screen, pull in whoever is free. That is as fast as turning \
    round, and the fix is then posted where the whole team can find it.

On time zones the skeptic is right that they slow things down. The answer is overlapping hours for people who \
    work closely together, not a shared building. Distance in hours is a scheduling problem; distance in miles \
    no longer has to be one.",
    "\
The skeptic says nobody can see who is stuck. That is fair, and the moderator is right to press on juniors: they \
    are where remote work is weakest by default. But look at what the office actually gives them. A junior learns \
    a great deal if they happen to sit next to a patient senior, and very little if they sit next to someone on a \
    deadline. That is not a system. It is a seating plan.

A remote team can make the learning deliberate:

- a named mentor for the first months, with time set aside in the mentor's week;
- open pairing hours, where anyone can join a senior's screen and watch how they work;
- code review treated as teaching, explaining why a change is needed instead of just approving it.

Done this way, a junior learns from the best people on the team, not merely the nearest. The office leaves that \
    to chance.",
    "\
The price is real, but it is not new. An office team pays it too, in interruptions nobody schedules or counts. \
    Remote work moves that cost into the open, where a team can decide how much to spend and on whom.

On juniors who will not ask: that is a matter of culture, and it is fixed the way good offices fix it, with \
    seniors asking their own questions in public first. A channel where leads admit what they do not know is one \
    where juniors ask too. Knowing whom to ask is solved the same way, by writing down who owns what.

I concede that a team made up mostly of juniors, or one without seniors willing to mentor, should share an \
    office. For the rest the trade holds: focus, a wider hiring pool and a written record, paid for with \
    mentoring time the team chooses to spend.",
];

pub const SKEPTIC: [&str; 4] = [
    "\
Remote work is usually sold as a gift to the individual: no commute, fewer interruptions, a quiet room. But a \
    software team's output is not the sum of its quiet hours. It depends on how fast people unblock each other, \
    and that is where remote work is weakest.

In an office, a developer stuck on a failing build turns round and asks. The answer takes two minutes. On a \
    remote team the same question becomes a message, then a wait, then a thread, while the developer switches to \
    something else and hopes for a reply. Multiply that by every small question in a week.

Distance adds its own delay. A team spread across time zones asks a question in the afternoon and gets the \
    answer the next morning, and a design argument that would take one meeting at a whiteboard takes a week of \
    comments. The office is not nostalgia. It is the fastest feedback loop a team has.",
    "\
The advocate's first point, focus, cuts both ways. Hours in which nobody can interrupt you are also hours in \
    which nobody can reach you, and the interruption counted as a cost is often how a stuck colleague gets moving \
    again.

The written memory is real, but it is not free. A good design document takes longer than a conversation, not \
    every developer writes well, and documents record what was decided, rarely the doubts raised and dropped on \
    the way.

On this round's question, the office's real advantage is what never becomes a question at all. A senior \
    overhears a colleague struggling and walks over. Someone notices that two people are solving the same \
    problem. That ambient awareness has no remote equivalent, because nobody can see who is stuck. The hiring \
    pool is wider, I grant, but a wider pool of people who cannot see each other work does not make a faster \
    team.",
    "\
The advocate's answer to a stuck developer is a call. But a call needs two things the office provides for free: \
    knowing whom to ask, and knowing they are free. In an office you can see that the person who wrote the \
    deployment script is at their desk and not in a meeting. Remotely, you guess, you ping, and you wait.

The moderator's question makes this worse. A call is an easy step for a senior and a hard one for a junior. \
    Asking in a team channel feels like making a permanent record of what you do not know, and a junior afraid \
    of looking slow will spend a day stuck rather than interrupt someone. At a desk, the same question is a quiet \
    word nobody else hears.

Juniors also learn from the moments in between: watching a senior read an unfamiliar error, hearing why an idea \
    was dropped. An office does not guarantee those moments, but a remote team has to invent every one of them.",
    "\
The advocate has conceded that a message is slower than a question at a desk, and that juniors are where remote \
    work is weakest by default. The remedy offered is a plan whose key word is \"deliberate\". Everything on it \
    costs senior time, booked in advance and defended against deadlines. The office delivers much of the same \
    learning as a side effect, while the senior gets on with their own work.

So the case now rests on teams that budget mentoring and keep to it. That describes a well-run team, not remote \
    work, and well-run teams do well anywhere. The proposition is about software teams in general, and many are \
    not that disciplined.

Remote work can match the office; the advocate has shown that, at a price. Beating it is a stronger claim, and \
    it rests on conditions many teams do not meet.",
];

pub const VERDICTS: [Judged; 3] = [
    Judged {
        resolved: false,
        verdict: "The advocate made a clear case for focus, hiring reach and a written record; the skeptic made a \
            concrete one about how slowly a remote team unblocks a stuck developer. Each side argued its own case \
            without meeting the other's strongest point, and the question of speed is the one most worth settling.",
        topic: "Can a remote software team unblock a stuck developer as quickly as a team that shares an office?",
        heat: 0.7,
    },
    Judged {
        resolved: false,
        verdict: "The advocate answered the speed point with a norm of calling after a few minutes stuck, and \
            conceded the cost of time zones fairly. The skeptic turned the focus argument around, and its point \
            about ambient awareness, help that arrives before anyone asks, is the strongest of the exchange so far. \
            The moderator's note sharpens it: junior developers need that help most.",
        topic: "What would a remote team have to do so that junior developers learn as fast as they would in an \
            office?",
        heat: 0.9,
    },
    Judged {
        resolved: false,
        verdict: "The advocate conceded that juniors are where remote work is weakest and offered a deliberate \
            plan: mentors, open pairing hours and code review as teaching. The skeptic's point that juniors hesitate \
            to ask, in a channel or on a call, is concrete, and nothing in the plan answers it. Nor has the advocate \
            shown that teams will really spend the senior time the plan needs.",
        topic: "Is the senior time that remote mentoring takes a price worth paying for the focus and hiring \
            reach remote work brings?",
        heat: 0.6,
    },
];

/// The judge's final synthesis, asked for when the person forces a resolution.
pub const SYNTHESIS: Judged = Judged {
    resolved: true,
    verdict: "Both sides ended closer than they began. Remote work gives developers focus, lets a team hire \
        beyond one city and leaves a written record; the office gives fast, unplanned help and lets juniors learn \
        by being near experienced people. The advocate conceded that teams made up mostly of juniors belong in an \
        office, and the skeptic granted that remote practices can match the office, at a cost in senior time.

The skeptic has the better of it. The advocate's case holds for experienced teams that deliberately budget \
        mentoring and make asking in public normal, and the proposition claims more than that. Remote work can \
        beat the office for a disciplined, experienced team; as a claim about software teams in general, it is \
        not established.",
    topic: PROPOSITION,
    heat: 0.3,
};

/// How a role's turns stream: milliseconds before the first word, and
/// tokens a second.
pub fn pace(role: Role, round: usize) -> (u64, f64) {
    let first = [1100, 900, 1300, 1000][round % 4];
    match role {
        Role::Advocate => (first, [31.0, 28.0, 33.0, 30.0][round % 4]),
        Role::Skeptic => (first + 350, [29.0, 32.0, 27.0, 31.0][round % 4]),
        _ => (1200, 36.0),
    }
}
