//! The AML data plane: a workspace's run history and artifact service, found through
//! the workspace's discovery document, for reading a ParallelRunStep run's log tree.

use serde_json::Value;

use super::Azure;
use crate::error::{Error, Result};

/// Where a workspace's run history and artifacts are served.
#[derive(Debug, Clone)]
pub(crate) struct DataPlane {
    /// `{api}/history/v1.0{workspace path}`.
    history: String,
    /// `{api}/artifact/v2.0{workspace path}`.
    artifacts: String,
    /// The group and workspace, for hints.
    group: String,
    workspace: String,
}

/// One file of a run, with the storage URL (SAS) to fetch it from.
#[derive(Debug, Clone)]
pub(crate) struct Artifact {
    pub path: String,
    pub content_uri: String,
}

/// At most this many pages of one listing.
const MAX_PAGES: usize = 10_000;

impl Azure {
    /// The data plane of the workspace `workspace` (its ARM JSON), at `workspace_path`:
    /// the `api` host (else `history`) of the discovery document at
    /// `properties.discoveryUrl`, exactly as the service hands it out.
    pub(crate) fn data_plane(
        &mut self,
        workspace: &Value,
        workspace_path: &str,
    ) -> Result<DataPlane> {
        let url = workspace["properties"]["discoveryUrl"]
            .as_str()
            .filter(|u| !u.is_empty())
            .ok_or_else(|| {
                Error::access(
                    "the workspace names no discoveryUrl, so its run history cannot be found",
                )
            })?;
        let doc = self.anonymous_get(url, "reading the workspace's discovery document")?;
        let api = ["api", "history"]
            .iter()
            .find_map(|k| doc[*k].as_str().filter(|v| !v.is_empty()))
            .ok_or_else(|| {
                Error::access(format!(
                    "the discovery document at {url} names no 'api' or 'history' host"
                ))
            })?;
        super::http::checked_url(api)?;
        let api = api.trim_end_matches('/');
        let id = crate::evidence::resource_id::ResourceId::new(workspace_path);
        let after = |name: &str| id.value_of(name).unwrap_or_default().to_owned();
        Ok(DataPlane {
            group: after("resourceGroups"),
            workspace: after("workspaces"),
            history: format!("{api}/history/v1.0{workspace_path}"),
            artifacts: format!("{api}/artifact/v2.0{workspace_path}"),
        })
    }

    /// A run of the workspace, by id.
    pub(crate) fn run(&mut self, dp: &DataPlane, run_id: &str) -> Result<Value> {
        let url = format!("{}/runs/{}", dp.history, segment(run_id));
        self.data_get(&url, &format!("reading run '{run_id}'"))
            .map_err(|e| not_found_hint(e, run_id, dp))
    }

    /// The runs directly under `run_id` (a pipeline's step runs).
    pub(crate) fn children(&mut self, dp: &DataPlane, run_id: &str) -> Result<Vec<Value>> {
        let url = format!("{}/runs/{}/children", dp.history, segment(run_id));
        // The run history service spells its paging parameter its own way.
        self.pages(
            &url,
            "$continuationtoken",
            &format!("listing the child runs of '{run_id}'"),
        )
    }

    /// The files of a run's data container under `prefix` (`logs/`), each with its SAS
    /// URL.
    pub(crate) fn artifacts(
        &mut self,
        dp: &DataPlane,
        container: &str,
        prefix: &str,
    ) -> Result<Vec<Artifact>> {
        let path: Vec<String> = prefix.split('/').map(segment).collect();
        let url = format!(
            "{}/artifacts/prefix/contentinfo/ExperimentRun/{}/{}",
            dp.artifacts,
            segment(container),
            path.join("/")
        );
        let items = self.pages(
            &url,
            "continuationToken",
            &format!("listing the files under {prefix}"),
        )?;
        Ok(items
            .iter()
            .filter_map(|i| {
                Some(Artifact {
                    path: i["path"].as_str()?.to_owned(),
                    content_uri: i["contentUri"].as_str()?.to_owned(),
                })
            })
            .collect())
    }

    /// Every item of a data-plane listing: `value` of each page, following
    /// `continuationToken` (sent back as the query parameter `token_param`) or
    /// `nextLink` (only on the same host), until neither is given or one repeats.
    fn pages(&mut self, first: &str, token_param: &str, what: &str) -> Result<Vec<Value>> {
        let base = reqwest::Url::parse(first)
            .map_err(|e| Error::access(format!("{what}: bad URL ({e})")))?;
        let mut url = base.clone();
        let mut items = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for _ in 0..MAX_PAGES {
            let page = self.data_get(url.as_str(), what)?;
            if let Some(list) = page["value"].as_array() {
                items.extend(list.iter().cloned());
            }
            let token = page["continuationToken"].as_str().filter(|t| !t.is_empty());
            let next = page["nextLink"].as_str().filter(|t| !t.is_empty());
            if let Some(next) = next {
                let n = reqwest::Url::parse(next)
                    .map_err(|e| Error::access(format!("{what}: bad nextLink ({e})")))?;
                if n.origin() != base.origin() {
                    return Err(Error::access(format!(
                        "{what}: the next page is on another host; not following it with the token"
                    )));
                }
                if !seen.insert(next.to_owned()) {
                    return Ok(items);
                }
                url = n;
            } else if let Some(token) = token {
                if !seen.insert(token.to_owned()) {
                    return Ok(items);
                }
                url = base.clone();
                url.query_pairs_mut().append_pair(token_param, token);
            } else {
                return Ok(items);
            }
        }
        Err(Error::access(format!(
            "{what}: more than {MAX_PAGES} pages"
        )))
    }
}

/// One path segment, percent-encoded.
fn segment(text: &str) -> String {
    let mut url = reqwest::Url::parse("http://x/").unwrap_or_else(|_| unreachable!());
    url.path_segments_mut()
        .map(|mut s| {
            s.push(text);
        })
        .unwrap_or_else(|()| unreachable!());
    url.path().trim_start_matches('/').to_owned()
}

fn not_found_hint(e: Error, run_id: &str, dp: &DataPlane) -> Error {
    if e.service.as_ref().is_some_and(|s| s.status == 404) {
        e.with_hint(format!(
            "no run '{run_id}' in workspace '{ws}': check -w/-g, or list recent jobs with 'az ml job list -g {g} -w {ws} -o table'",
            g = dp.group,
            ws = dp.workspace
        ))
    } else {
        e
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn segments_are_encoded() {
        assert_eq!(super::segment("dcid.run_1"), "dcid.run_1");
        assert_eq!(super::segment("a b/c"), "a%20b%2Fc");
    }
}
