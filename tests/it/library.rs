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

/// The fixtures' papers (`tests/fixtures/library`, the PDFs made by fpdf2)
/// copied into a folder `papers/` of a fresh directory.
fn papers(dir: &std::path::Path) -> std::path::PathBuf {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/library");
    let papers = dir.join("papers");
    std::fs::create_dir_all(&papers).unwrap();
    for name in ["night-trains.pdf", "timetable.html", "scan.pdf", "locked.pdf"] {
        std::fs::copy(fixtures.join(name), papers.join(name)).unwrap();
    }
    papers
}

#[test]
fn a_pdf_is_read_by_its_text_layer_page_by_page_and_an_html_page_by_its_words() {
    let dir = tempfile::tempdir().unwrap();
    let papers = papers(dir.path());
    let library = Library::open(&[papers.display().to_string()]).unwrap();

    let pdf = library.doc("papers/night-trains.pdf").unwrap();
    assert!(pdf.converted);
    assert!(pdf.text.starts_with("## Page 1\n\nNight trains in Europe\n"), "{}", pdf.text);
    assert!(pdf.text.contains("\n## Page 2\n\nWhat a berth costs\n"), "{}", pdf.text);
    assert!(pdf.text.lines().all(|l| l.chars().count() <= 100), "{}", pdf.text);
    let hits = library.search("what share of the fare do track access charges make up", 1);
    let passage = &library.passages[hits[0].passage];
    assert_eq!(library.docs[passage.doc].name, "papers/night-trains.pdf");
    assert_eq!(passage.headings, ["Page 2"], "a passage knows its page");
    assert!(library.text(passage).contains("Track access charges make up about a third"));

    let page = library.doc("papers/timetable.html").unwrap();
    assert!(page.text.contains("# Timetable notes\n"), "{}", page.text);
    assert!(page.text.contains("## Connections\n"), "{}", page.text);
    assert!(page.text.contains("The Nightjet leaves Vienna at 19:40 and reaches Paris Est"), "{}", page.text);
    assert!(page.text.contains("a TGV to Bordeaux leaves forty minutes"), "links read as their words: {}", page.text);
    for hidden in ["tracking", "font-family", "https://example.com", "<p>"] {
        assert!(!page.text.contains(hidden), "{hidden} in {}", page.text);
    }

    // A scan and a locked PDF are left out of a folder, counted by why…
    assert!(library.summary().ends_with("left out 1 PDF with a password, 1 PDF without text"), "{}", library.summary());
    // …and refused, in one sentence, when named themselves.
    let named = |name: &str| Library::open(&[papers.join(name).display().to_string()]).unwrap_err().to_string();
    let scan = papers.join("scan.pdf").display().to_string();
    assert_eq!(
        named("scan.pdf"),
        format!("the source {scan} is a PDF with no text layer (a scan?); give its text (OCR makes one)")
    );
    let locked = papers.join("locked.pdf").display().to_string();
    assert_eq!(named("locked.pdf"), format!("the source {locked} is a PDF with a password"));
}
