//! Which part of Azure Machine Learning a failure was seen on — an online deployment, a
//! batch endpoint, a job, a local endpoint, an environment build — read from the words
//! of the lines the scan kept (the `az ml` commands run and resource ids named, the
//! error lines and those after them) and the document's kind. The same cause needs other next steps on each:
//! a quota reached by an online deployment is raised per VM family, one reached by the
//! endpoint count per subscription; a timeout of a local endpoint is Docker's, of a job
//! the compute's. A category rule's `surfaces:` give its fix for each.

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};

use super::DocumentKind;

/// A part of Azure Machine Learning a failure is seen on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Surface {
    /// A managed or Kubernetes online endpoint and its deployments.
    Online,
    /// A batch endpoint, its deployments and the jobs they run.
    Batch,
    /// A command, pipeline or sweep job (training, ParallelRunStep).
    Job,
    /// An endpoint deployed to the local Docker daemon (`--local`, `local=True`).
    Local,
    /// An environment image build (ACR task, Dockerfile, conda or pip step).
    Build,
}

impl Surface {
    pub const ALL: [Surface; 5] = [
        Surface::Online,
        Surface::Batch,
        Surface::Job,
        Surface::Local,
        Surface::Build,
    ];

    /// The name rule files and reports use.
    pub fn name(self) -> &'static str {
        match self {
            Surface::Online => "online",
            Surface::Batch => "batch",
            Surface::Job => "job",
            Surface::Local => "local",
            Surface::Build => "build",
        }
    }

    /// What a report says the failure was seen on.
    pub fn describe(self) -> &'static str {
        match self {
            Surface::Online => "online endpoint",
            Surface::Batch => "batch endpoint",
            Surface::Job => "job",
            Surface::Local => "local endpoint",
            Surface::Build => "environment build",
        }
    }

    /// Microsoft's troubleshooting page for failures seen on this surface: what a
    /// finding classified by its words alone (a cause category) cites, since its
    /// catalogue entry cannot know which part of the service the failure came from.
    pub fn troubleshooting(self) -> &'static str {
        match self {
            Surface::Online => {
                "https://learn.microsoft.com/azure/machine-learning/how-to-troubleshoot-online-endpoints"
            }
            Surface::Batch => {
                "https://learn.microsoft.com/azure/machine-learning/how-to-troubleshoot-batch-endpoints"
            }
            Surface::Job => {
                "https://learn.microsoft.com/azure/machine-learning/how-to-debug-pipeline-failure"
            }
            Surface::Local => {
                "https://learn.microsoft.com/azure/machine-learning/how-to-troubleshoot-online-endpoints#deploy-locally"
            }
            Surface::Build => {
                "https://learn.microsoft.com/azure/machine-learning/how-to-troubleshoot-environments"
            }
        }
    }

    pub fn parse(name: &str) -> Option<Surface> {
        Surface::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The surface `lines` (a document's kept lines) and its `kind` point to, if any.
    /// A local endpoint and a batch endpoint are named outright where they are (their
    /// commands say `--local` or `batch-endpoint`, and their logs also hold the words
    /// of online deployments and jobs); otherwise the kind and the words vote.
    pub fn detect<'a>(
        kind: DocumentKind,
        lines: impl IntoIterator<Item = &'a str>,
    ) -> Option<Surface> {
        let mut votes = [0usize; Surface::ALL.len()];
        for line in lines {
            for m in words().find_overlapping_iter(line) {
                votes[WORDS[m.pattern().as_usize()].0 as usize] += 1;
            }
        }
        for strong in [Surface::Local, Surface::Batch] {
            if votes[strong as usize] > 0 {
                return Some(strong);
            }
        }
        let by_kind = match kind {
            DocumentKind::InferenceServer
            | DocumentKind::StorageInitializer
            | DocumentKind::Kubernetes => Some(Surface::Online),
            DocumentKind::ImageBuild => Some(Surface::Build),
            DocumentKind::Prs => Some(Surface::Job),
            DocumentKind::Cli | DocumentKind::Generic => None,
        };
        if let Some(s) = by_kind {
            votes[s as usize] += 3;
        }
        let best = *votes.iter().max()?;
        // Ties go to the earlier of build, online, job: a build log of a deployment is
        // fixed in the environment, and a deployment's log in its endpoint.
        [Surface::Build, Surface::Online, Surface::Job]
            .into_iter()
            .find(|s| best > 0 && votes[*s as usize] == best)
    }
}

/// The words that place a text on a surface, matched without regard to case.
const WORDS: &[(Surface, &str)] = &[
    (Surface::Local, "--local"),
    (Surface::Local, "local=true"),
    (Surface::Local, "local endpoint"),
    (Surface::Local, "local deployment"),
    (Surface::Local, "localendpoint"),
    (Surface::Local, "local_endpoint"),
    (Surface::Batch, "batch-endpoint"),
    (Surface::Batch, "batch endpoint"),
    (Surface::Batch, "batch-deployment"),
    (Surface::Batch, "batch deployment"),
    (Surface::Batch, "batchendpoint"),
    (Surface::Batch, "batchdeployment"),
    (Surface::Batch, "batch_endpoint"),
    (Surface::Batch, "batch_deployment"),
    (Surface::Build, "image build"),
    (Surface::Build, "imagebuild"),
    (Surface::Build, "dockerfile"),
    (Surface::Build, "docker build"),
    (Surface::Build, "acr build"),
    (Surface::Build, "building image"),
    (Surface::Build, "environment image"),
    (Surface::Build, "conda env create"),
    (Surface::Online, "online-endpoint"),
    (Surface::Online, "online endpoint"),
    (Surface::Online, "online-deployment"),
    (Surface::Online, "online deployment"),
    (Surface::Online, "onlineendpoint"),
    (Surface::Online, "onlinedeployment"),
    (Surface::Online, "online_endpoint"),
    (Surface::Online, "online_deployment"),
    (Surface::Online, "scoring_uri"),
    (Surface::Online, "azmlinfsrv"),
    (Surface::Job, "az ml job"),
    (Surface::Job, "jobs.create_or_update"),
    (Surface::Job, "jobs.stream"),
    (Surface::Job, "command job"),
    (Surface::Job, "pipeline job"),
    (Surface::Job, "commandjob"),
    (Surface::Job, "pipelinejob"),
    (Surface::Job, "parallelrunstep"),
    (Surface::Job, "azuremlcompute job failed"),
    (Surface::Job, "execution failed"),
    (Surface::Job, "training job"),
    (Surface::Job, "experiment"),
    (Surface::Job, "submit("),
];

fn words() -> &'static AhoCorasick {
    static WORDS_AC: OnceLock<AhoCorasick> = OnceLock::new();
    WORDS_AC.get_or_init(|| {
        AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .build(WORDS.iter().map(|(_, w)| w))
            .expect("the surface words are plain literals")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detect(kind: DocumentKind, text: &str) -> Option<&'static str> {
        Surface::detect(kind, text.lines()).map(Surface::name)
    }

    #[test]
    fn the_words_and_the_kind_name_the_surface() {
        let cli = DocumentKind::Cli;
        assert_eq!(
            detect(
                cli,
                "$ az ml online-endpoint create --local -f endpoint.yml\nError: Docker"
            ),
            Some("local")
        );
        assert_eq!(
            detect(
                cli,
                "az ml batch-endpoint invoke --name e\nAzureMLCompute job failed."
            ),
            Some("batch")
        );
        assert_eq!(
            detect(
                cli,
                "ml_client.online_deployments.begin_create_or_update(d)"
            ),
            Some("online")
        );
        assert_eq!(
            detect(
                cli,
                "ml_client.jobs.create_or_update(job)\nExecution failed"
            ),
            Some("job")
        );
        assert_eq!(
            detect(DocumentKind::ImageBuild, "Step 3/9 : RUN conda env create"),
            Some("build")
        );
        assert_eq!(
            detect(DocumentKind::InferenceServer, "Booting worker with pid: 42"),
            Some("online")
        );
        assert_eq!(
            detect(
                DocumentKind::Generic,
                "PUT https://management.azure.com/subscriptions/s/resourceGroups/g/providers/Microsoft.MachineLearningServices/workspaces/w/batchEndpoints/e"
            ),
            Some("batch")
        );
        assert_eq!(detect(DocumentKind::Generic, "KeyError: 'age'"), None);
        for s in Surface::ALL {
            assert_eq!(Surface::parse(s.name()), Some(s));
        }
    }
}
