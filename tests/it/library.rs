//! The library's retrieval, judged on heat's own docs/: a set of questions a
//! reader would ask (`library/questions.toml`), each with the words of the
//! line that answers it; the passage holding that line must be among the
//! first five a search returns for at least 90 % of them.

use heat::library::Library;

#[derive(serde::Deserialize)]
struct Set {
    question: Vec<Question>,
}

#[derive(serde::Deserialize)]
struct Question {
    ask: String,
    file: String,
    answer: String,
}

#[test]
fn the_passage_that_answers_a_question_is_in_the_first_five_for_nine_in_ten() {
    let root = env!("CARGO_MANIFEST_DIR");
    let set: Set =
        toml::from_str(&std::fs::read_to_string(format!("{root}/tests/it/library/questions.toml")).unwrap()).unwrap();
    assert!(set.question.len() >= 30, "the set has {} questions", set.question.len());
    let library = Library::open(&[format!("{root}/docs")]).unwrap();
    let mut missed = Vec::new();
    for q in &set.question {
        let doc = library.doc(&q.file).unwrap_or_else(|| panic!("{} is not in the library", q.file));
        let lines: Vec<usize> =
            doc.text.lines().enumerate().filter(|(_, l)| l.contains(&q.answer)).map(|(i, _)| i + 1).collect();
        assert_eq!(lines.len(), 1, "the answer of \"{}\" is on one line of {}: {lines:?}", q.ask, q.file);
        let line = lines[0];
        let hits = library.search(&q.ask, 5);
        let found = hits.iter().any(|h| {
            let p = &library.passages[h.passage];
            library.docs[p.doc].name == doc.name && (p.start..=p.end).contains(&line)
        });
        if !found {
            let got: Vec<String> = hits
                .iter()
                .map(|h| {
                    let p = &library.passages[h.passage];
                    format!("{}:L{}–L{}", library.docs[p.doc].name, p.start, p.end)
                })
                .collect();
            missed.push(format!("{} → wanted {}:L{line}, got {got:?}", q.ask, doc.name));
        }
    }
    let share = 1.0 - missed.len() as f64 / set.question.len() as f64;
    eprintln!(
        "{} of {} found in the first five ({:.0} %)",
        set.question.len() - missed.len(),
        set.question.len(),
        share * 100.0
    );
    assert!(share >= 0.9, "found {:.0} %; missed:\n{}", share * 100.0, missed.join("\n"));
}
