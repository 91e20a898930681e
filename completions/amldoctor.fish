# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_amldoctor_global_optspecs
    string join \n o/output= no-color q/quiet v/verbose debug subscription= g/resource-group= w/workspace-name= cloud= tenant= auth= h/help V/version
end

function __fish_amldoctor_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_amldoctor_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_amldoctor_using_subcommand
    set -l cmd (__fish_amldoctor_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c amldoctor -n "__fish_amldoctor_needs_command" -s o -l output -d 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]' -r -f -a "table\t'Human-readable text (colours only on a terminal)'
json\t'JSON with a versioned schema (`schema_version`)'
yaml\t'The same schema as json, in YAML'
sarif\t'SARIF 2.1.0 for GitHub code scanning (commands that report findings)'
junit\t'JUnit XML, one testcase per rule and input (commands that report findings)'
markdown\t'Markdown for pull requests and job summaries (findings commands, explain)'"
complete -c amldoctor -n "__fish_amldoctor_needs_command" -l subscription -d 'Subscription id or name [default: the az CLI\'s default subscription]; `check --fleet` takes several (repeat it)' -r
complete -c amldoctor -n "__fish_amldoctor_needs_command" -s g -l resource-group -d 'Resource group [default: az configure --defaults group=…]' -r
complete -c amldoctor -n "__fish_amldoctor_needs_command" -s w -l workspace-name -d 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]' -r
complete -c amldoctor -n "__fish_amldoctor_needs_command" -l cloud -d 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI\'s active cloud]' -r
complete -c amldoctor -n "__fish_amldoctor_needs_command" -l tenant -d 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID' -r
complete -c amldoctor -n "__fish_amldoctor_needs_command" -l auth -d 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]' -r -f -a "auto\t'The first that applies, in the order above'
env\t'Service principal from AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_CLIENT_SECRET'
workload\t'Workload identity from AZURE_FEDERATED_TOKEN_FILE (GitHub Actions OIDC)'
managed-identity\t'Managed identity of the Azure compute this runs on'
cli\t'The az CLI (or azd) sign-in'"
complete -c amldoctor -n "__fish_amldoctor_needs_command" -l no-color -d 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
complete -c amldoctor -n "__fish_amldoctor_needs_command" -s q -l quiet -d 'Print only the essential result on stdout and no notes'
complete -c amldoctor -n "__fish_amldoctor_needs_command" -s v -l verbose -d 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
complete -c amldoctor -n "__fish_amldoctor_needs_command" -l debug -d 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
complete -c amldoctor -n "__fish_amldoctor_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c amldoctor -n "__fish_amldoctor_needs_command" -s V -l version -d 'Print version'
complete -c amldoctor -n "__fish_amldoctor_needs_command" -f -a "logs" -d 'Print an online deployment\'s container logs, or save them (and a ParallelRunStep run\'s log tree) as a bundle, read from Azure'
complete -c amldoctor -n "__fish_amldoctor_needs_command" -f -a "diagnose" -d 'Find out why a deployment or a batch job failed, from logs you have or read live'
complete -c amldoctor -n "__fish_amldoctor_needs_command" -f -a "check" -d 'Check the configuration of a workspace, its Key Vault, private endpoints and online deployments, read live from Azure or from saved JSON'
complete -c amldoctor -n "__fish_amldoctor_needs_command" -f -a "lint" -d 'Check the files you are about to deploy, before `az ml online-deployment create`'
complete -c amldoctor -n "__fish_amldoctor_needs_command" -f -a "explain" -d 'Explain a deployment error code, an HTTP status of a scoring request, or a rule'
complete -c amldoctor -n "__fish_amldoctor_needs_command" -f -a "rules" -d 'List, show, test and document the rule catalogue'
complete -c amldoctor -n "__fish_amldoctor_needs_command" -f -a "replicas" -d 'Size an online deployment: how many instances a request rate needs, and the 429 ceiling of pending requests'
complete -c amldoctor -n "__fish_amldoctor_needs_command" -f -a "score" -d 'Send scoring requests to an online endpoint and explain what the caller gets back'
complete -c amldoctor -n "__fish_amldoctor_needs_command" -f -a "rehearse" -d 'Run the scoring script or the ParallelRunStep entry script locally, as the platform would, and diagnose what happens'
complete -c amldoctor -n "__fish_amldoctor_needs_command" -f -a "mcp" -d 'Serve the diagnosis to AI agents over the Model Context Protocol, on stdio'
complete -c amldoctor -n "__fish_amldoctor_needs_command" -f -a "completions" -d 'Print a shell completion script to stdout'
complete -c amldoctor -n "__fish_amldoctor_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand logs" -s e -l endpoint-name -d 'The online endpoint' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand logs" -s n -l name -d 'The deployment [default: the endpoint\'s only deployment]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand logs" -l container -d 'Which container\'s log' -r -f -a "inference-server\t'The inference server: score.py, the server and gunicorn'
storage-initializer\t'The model and code download before the server starts'
all\t'Both, one after the other, each under a header line'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand logs" -s l -l lines -d 'How many lines from the end, as az does' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand logs" -l interval -d 'Seconds between reads with --follow (doubled while nothing new comes, up to 60; each read after the first asks for the last 200 lines)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand logs" -l run -d 'A ParallelRunStep run (or the pipeline run holding it) whose log tree to download' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand logs" -l out -d 'Save a bundle into this folder (with manifest.json) instead of printing; an interrupted --run download resumes where it stopped' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand logs" -l jobs -d 'Parallel downloads with --run' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand logs" -s o -l output -d 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]' -r -f -a "table\t'Human-readable text (colours only on a terminal)'
json\t'JSON with a versioned schema (`schema_version`)'
yaml\t'The same schema as json, in YAML'
sarif\t'SARIF 2.1.0 for GitHub code scanning (commands that report findings)'
junit\t'JUnit XML, one testcase per rule and input (commands that report findings)'
markdown\t'Markdown for pull requests and job summaries (findings commands, explain)'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand logs" -l subscription -d 'Subscription id or name [default: the az CLI\'s default subscription]; `check --fleet` takes several (repeat it)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand logs" -s g -l resource-group -d 'Resource group [default: az configure --defaults group=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand logs" -s w -l workspace-name -d 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand logs" -l cloud -d 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI\'s active cloud]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand logs" -l tenant -d 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand logs" -l auth -d 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]' -r -f -a "auto\t'The first that applies, in the order above'
env\t'Service principal from AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_CLIENT_SECRET'
workload\t'Workload identity from AZURE_FEDERATED_TOKEN_FILE (GitHub Actions OIDC)'
managed-identity\t'Managed identity of the Azure compute this runs on'
cli\t'The az CLI (or azd) sign-in'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand logs" -s f -l follow -d 'Keep reading the log and print new lines as they come, until interrupted (Ctrl-C)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand logs" -l no-color -d 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand logs" -s q -l quiet -d 'Print only the essential result on stdout and no notes'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand logs" -s v -l verbose -d 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand logs" -l debug -d 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand logs" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand logs" -s V -l version -d 'Print version'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -l kind -d 'Read every input as this kind instead of detecting it' -r -f -a "inference-server\t'Console log of the `inference-server` container: runit launcher, pip freeze, azmlinfsrv/gunicorn lines, user prints'
storage-initializer\t'Log of the `storage-initializer` container (model and code download)'
cli\t'Output of `az ml …` or an SDK exception (error envelopes, JSON error bodies)'
kubernetes\t'`kubectl describe`, `kubectl get events` or `kubectl logs` output'
image-build\t'An environment image build log (ACR task, docker build, conda/pip)'
prs\t'A file of a ParallelRunStep / parallel job log tree (or its driver log)'
generic\t'Anything else; every rule that does not restrict its kinds reads it'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -s e -l endpoint-name -d 'Diagnose this online endpoint live: its logs and settings are read from Azure' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -s n -l name -d 'The deployment, with -e [default: the endpoint\'s only deployment]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -l run -d 'Diagnose this ParallelRunStep run (or its pipeline run) live: its log tree is downloaded from Azure' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -l log-analytics -d 'Diagnose from this Log Analytics workspace (its GUID, the workspace id) the online endpoints\' console and event logs, where their diagnostic settings send them; -e and -n narrow it to one endpoint or deployment. The rules\' literals run in Log Analytics as one filter, so only candidate lines are read' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -l since -d 'With --log-analytics: how far back to read: 24h, 90m, 7d, PT6H [default: 24h]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -l save -d 'With -e, --run or --log-analytics: keep what was read from Azure as a bundle in DIR' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -l rules -d 'A directory of extra rule files (repeatable); added to the built-in catalogue' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -s j -l jobs -d 'Worker threads for scanning [default: the number of CPUs]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -l fail-on -d 'Exit 1 when a finding at or above this severity is reported (and not suppressed or in the baseline)' -r -f -a "error\t'Fail on errors only (default)'
warning\t'Fail on warnings and errors'
info\t'Fail on any finding'
never\t'Never fail because of findings'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -l min-severity -d 'Show findings at or above this severity [default: warning for table and markdown, info for the machine formats]; the gate still counts every finding' -r -f -a "info\t'Context worth knowing; not a problem by itself'
warning\t'Likely to cause trouble'
error\t'A failure and its cause'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -l ignore -d 'Do not report this rule (repeatable); for accepted findings prefer a suppression with a reason in .amldoctor.yaml' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -l baseline -d 'Findings in this baseline file (from --write-baseline) are reported as unchanged and do not fail the gate; only new ones do' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -l write-baseline -d 'Write every current finding to FILE as a baseline, then apply it' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -l output-file -d 'Also write a report to a file: FORMAT=PATH (e.g. sarif=results.sarif), or a PATH whose extension names the format (.sarif .json .yaml .xml .md); repeatable' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -l sarif-category -d 'The SARIF run\'s category (runs[].automationDetails.id), so code scanning keeps the uploads of different jobs apart [default: amldoctor/COMMAND/]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -l markdown-limit -d 'The most bytes markdown on stdout may have: a longer report keeps its summary and the first findings, and says how many it left out (a pull-request comment takes 65,536 characters, which bytes never undercount; a job summary 1 MiB; 0 for no limit). A markdown --output-file is always whole' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -s o -l output -d 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]' -r -f -a "table\t'Human-readable text (colours only on a terminal)'
json\t'JSON with a versioned schema (`schema_version`)'
yaml\t'The same schema as json, in YAML'
sarif\t'SARIF 2.1.0 for GitHub code scanning (commands that report findings)'
junit\t'JUnit XML, one testcase per rule and input (commands that report findings)'
markdown\t'Markdown for pull requests and job summaries (findings commands, explain)'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -l subscription -d 'Subscription id or name [default: the az CLI\'s default subscription]; `check --fleet` takes several (repeat it)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -s g -l resource-group -d 'Resource group [default: az configure --defaults group=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -s w -l workspace-name -d 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -l cloud -d 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI\'s active cloud]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -l tenant -d 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -l auth -d 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]' -r -f -a "auto\t'The first that applies, in the order above'
env\t'Service principal from AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_CLIENT_SECRET'
workload\t'Workload identity from AZURE_FEDERATED_TOKEN_FILE (GitHub Actions OIDC)'
managed-identity\t'Managed identity of the Azure compute this runs on'
cli\t'The az CLI (or azd) sign-in'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -l sarif-keep-suppressed -d 'Keep suppressed and baseline-unchanged findings in SARIF, each result then saying whether it is suppressed and new (code scanning ignores both and shows them open)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -l junit-file-attribute -d 'Put a `file` attribute on every JUnit testcase, as GitLab shows it (Jenkins xUnit\'s junit-10.xsd has it on testsuites only, where it always is)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -l no-color -d 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -s q -l quiet -d 'Print only the essential result on stdout and no notes'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -s v -l verbose -d 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -l debug -d 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand diagnose" -s V -l version -d 'Print version'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l from -d 'JSON of the resources: files, directories, or `-` for standard input (repeatable); without it, they are read from Azure' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -s e -l endpoint-name -d 'The online endpoint to check, when reading from Azure' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -s n -l name -d 'Its deployment, with -e [default: every deployment of the endpoint]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l save -d 'When reading from Azure: keep what was read as a bundle in DIR' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l rps -d 'Requests per second the deployment must serve: checks the instance count with the `replicas` formula' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l latency -d 'Time one request takes, for --rps: 10, 250ms, PT10S [default: 10s]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l host -d 'dns: a host to resolve besides those the resources name; a URL is taken for its host (repeatable)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l nameserver -d 'dns: a DNS server to ask besides the system resolver (repeatable); Azure DNS, 168.63.129.16, answers only inside an Azure virtual network' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l expect-cidr -d 'dns: an address range every answer must fall in (repeatable)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l management-group -d 'With --fleet: a management group to query (repeatable)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l rules -d 'A directory of extra rule files (repeatable); added to the built-in catalogue' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l fail-on -d 'Exit 1 when a finding at or above this severity is reported (and not suppressed or in the baseline)' -r -f -a "error\t'Fail on errors only (default)'
warning\t'Fail on warnings and errors'
info\t'Fail on any finding'
never\t'Never fail because of findings'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l min-severity -d 'Show findings at or above this severity [default: warning for table and markdown, info for the machine formats]; the gate still counts every finding' -r -f -a "info\t'Context worth knowing; not a problem by itself'
warning\t'Likely to cause trouble'
error\t'A failure and its cause'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l ignore -d 'Do not report this rule (repeatable); for accepted findings prefer a suppression with a reason in .amldoctor.yaml' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l baseline -d 'Findings in this baseline file (from --write-baseline) are reported as unchanged and do not fail the gate; only new ones do' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l write-baseline -d 'Write every current finding to FILE as a baseline, then apply it' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l output-file -d 'Also write a report to a file: FORMAT=PATH (e.g. sarif=results.sarif), or a PATH whose extension names the format (.sarif .json .yaml .xml .md); repeatable' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l sarif-category -d 'The SARIF run\'s category (runs[].automationDetails.id), so code scanning keeps the uploads of different jobs apart [default: amldoctor/COMMAND/]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l markdown-limit -d 'The most bytes markdown on stdout may have: a longer report keeps its summary and the first findings, and says how many it left out (a pull-request comment takes 65,536 characters, which bytes never undercount; a job summary 1 MiB; 0 for no limit). A markdown --output-file is always whole' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -s o -l output -d 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]' -r -f -a "table\t'Human-readable text (colours only on a terminal)'
json\t'JSON with a versioned schema (`schema_version`)'
yaml\t'The same schema as json, in YAML'
sarif\t'SARIF 2.1.0 for GitHub code scanning (commands that report findings)'
junit\t'JUnit XML, one testcase per rule and input (commands that report findings)'
markdown\t'Markdown for pull requests and job summaries (findings commands, explain)'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l subscription -d 'Subscription id or name [default: the az CLI\'s default subscription]; `check --fleet` takes several (repeat it)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -s g -l resource-group -d 'Resource group [default: az configure --defaults group=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -s w -l workspace-name -d 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l cloud -d 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI\'s active cloud]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l tenant -d 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l auth -d 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]' -r -f -a "auto\t'The first that applies, in the order above'
env\t'Service principal from AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_CLIENT_SECRET'
workload\t'Workload identity from AZURE_FEDERATED_TOKEN_FILE (GitHub Actions OIDC)'
managed-identity\t'Managed identity of the Azure compute this runs on'
cli\t'The az CLI (or azd) sign-in'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l no-system-resolver -d 'dns: ask only the --nameserver servers, not this machine\'s resolver'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l fleet -d 'Every workspace in scope from one Azure Resource Graph query (with its Key Vault, registry, storage account, endpoints and deployments), checked workspace by workspace; the scope is --subscription (repeatable) or --management-group'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l sarif-keep-suppressed -d 'Keep suppressed and baseline-unchanged findings in SARIF, each result then saying whether it is suppressed and new (code scanning ignores both and shows them open)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l junit-file-attribute -d 'Put a `file` attribute on every JUnit testcase, as GitLab shows it (Jenkins xUnit\'s junit-10.xsd has it on testsuites only, where it always is)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l no-color -d 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -s q -l quiet -d 'Print only the essential result on stdout and no notes'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -s v -l verbose -d 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -l debug -d 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand check" -s V -l version -d 'Print version'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand lint" -l rules -d 'A directory of extra rule files (repeatable); added to the built-in catalogue' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand lint" -l fail-on -d 'Exit 1 when a finding at or above this severity is reported (and not suppressed or in the baseline)' -r -f -a "error\t'Fail on errors only (default)'
warning\t'Fail on warnings and errors'
info\t'Fail on any finding'
never\t'Never fail because of findings'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand lint" -l min-severity -d 'Show findings at or above this severity [default: warning for table and markdown, info for the machine formats]; the gate still counts every finding' -r -f -a "info\t'Context worth knowing; not a problem by itself'
warning\t'Likely to cause trouble'
error\t'A failure and its cause'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand lint" -l ignore -d 'Do not report this rule (repeatable); for accepted findings prefer a suppression with a reason in .amldoctor.yaml' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand lint" -l baseline -d 'Findings in this baseline file (from --write-baseline) are reported as unchanged and do not fail the gate; only new ones do' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand lint" -l write-baseline -d 'Write every current finding to FILE as a baseline, then apply it' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand lint" -l output-file -d 'Also write a report to a file: FORMAT=PATH (e.g. sarif=results.sarif), or a PATH whose extension names the format (.sarif .json .yaml .xml .md); repeatable' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand lint" -l sarif-category -d 'The SARIF run\'s category (runs[].automationDetails.id), so code scanning keeps the uploads of different jobs apart [default: amldoctor/COMMAND/]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand lint" -l markdown-limit -d 'The most bytes markdown on stdout may have: a longer report keeps its summary and the first findings, and says how many it left out (a pull-request comment takes 65,536 characters, which bytes never undercount; a job summary 1 MiB; 0 for no limit). A markdown --output-file is always whole' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand lint" -s o -l output -d 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]' -r -f -a "table\t'Human-readable text (colours only on a terminal)'
json\t'JSON with a versioned schema (`schema_version`)'
yaml\t'The same schema as json, in YAML'
sarif\t'SARIF 2.1.0 for GitHub code scanning (commands that report findings)'
junit\t'JUnit XML, one testcase per rule and input (commands that report findings)'
markdown\t'Markdown for pull requests and job summaries (findings commands, explain)'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand lint" -l subscription -d 'Subscription id or name [default: the az CLI\'s default subscription]; `check --fleet` takes several (repeat it)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand lint" -s g -l resource-group -d 'Resource group [default: az configure --defaults group=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand lint" -s w -l workspace-name -d 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand lint" -l cloud -d 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI\'s active cloud]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand lint" -l tenant -d 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand lint" -l auth -d 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]' -r -f -a "auto\t'The first that applies, in the order above'
env\t'Service principal from AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_CLIENT_SECRET'
workload\t'Workload identity from AZURE_FEDERATED_TOKEN_FILE (GitHub Actions OIDC)'
managed-identity\t'Managed identity of the Azure compute this runs on'
cli\t'The az CLI (or azd) sign-in'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand lint" -l fix-suggestions -d 'Also print, per file, the edited lines that would fix each finding (a unified diff with no context lines); files are never written'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand lint" -l sarif-keep-suppressed -d 'Keep suppressed and baseline-unchanged findings in SARIF, each result then saying whether it is suppressed and new (code scanning ignores both and shows them open)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand lint" -l junit-file-attribute -d 'Put a `file` attribute on every JUnit testcase, as GitLab shows it (Jenkins xUnit\'s junit-10.xsd has it on testsuites only, where it always is)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand lint" -l no-color -d 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand lint" -s q -l quiet -d 'Print only the essential result on stdout and no notes'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand lint" -s v -l verbose -d 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand lint" -l debug -d 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand lint" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand lint" -s V -l version -d 'Print version'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand explain" -s o -l output -d 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]' -r -f -a "table\t'Human-readable text (colours only on a terminal)'
json\t'JSON with a versioned schema (`schema_version`)'
yaml\t'The same schema as json, in YAML'
sarif\t'SARIF 2.1.0 for GitHub code scanning (commands that report findings)'
junit\t'JUnit XML, one testcase per rule and input (commands that report findings)'
markdown\t'Markdown for pull requests and job summaries (findings commands, explain)'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand explain" -l subscription -d 'Subscription id or name [default: the az CLI\'s default subscription]; `check --fleet` takes several (repeat it)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand explain" -s g -l resource-group -d 'Resource group [default: az configure --defaults group=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand explain" -s w -l workspace-name -d 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand explain" -l cloud -d 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI\'s active cloud]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand explain" -l tenant -d 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand explain" -l auth -d 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]' -r -f -a "auto\t'The first that applies, in the order above'
env\t'Service principal from AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_CLIENT_SECRET'
workload\t'Workload identity from AZURE_FEDERATED_TOKEN_FILE (GitHub Actions OIDC)'
managed-identity\t'Managed identity of the Azure compute this runs on'
cli\t'The az CLI (or azd) sign-in'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand explain" -l no-color -d 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand explain" -s q -l quiet -d 'Print only the essential result on stdout and no notes'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand explain" -s v -l verbose -d 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand explain" -l debug -d 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand explain" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand explain" -s V -l version -d 'Print version'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and not __fish_seen_subcommand_from list show test docs example help" -s o -l output -d 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]' -r -f -a "table\t'Human-readable text (colours only on a terminal)'
json\t'JSON with a versioned schema (`schema_version`)'
yaml\t'The same schema as json, in YAML'
sarif\t'SARIF 2.1.0 for GitHub code scanning (commands that report findings)'
junit\t'JUnit XML, one testcase per rule and input (commands that report findings)'
markdown\t'Markdown for pull requests and job summaries (findings commands, explain)'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and not __fish_seen_subcommand_from list show test docs example help" -l subscription -d 'Subscription id or name [default: the az CLI\'s default subscription]; `check --fleet` takes several (repeat it)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and not __fish_seen_subcommand_from list show test docs example help" -s g -l resource-group -d 'Resource group [default: az configure --defaults group=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and not __fish_seen_subcommand_from list show test docs example help" -s w -l workspace-name -d 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and not __fish_seen_subcommand_from list show test docs example help" -l cloud -d 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI\'s active cloud]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and not __fish_seen_subcommand_from list show test docs example help" -l tenant -d 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and not __fish_seen_subcommand_from list show test docs example help" -l auth -d 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]' -r -f -a "auto\t'The first that applies, in the order above'
env\t'Service principal from AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_CLIENT_SECRET'
workload\t'Workload identity from AZURE_FEDERATED_TOKEN_FILE (GitHub Actions OIDC)'
managed-identity\t'Managed identity of the Azure compute this runs on'
cli\t'The az CLI (or azd) sign-in'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and not __fish_seen_subcommand_from list show test docs example help" -l no-color -d 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and not __fish_seen_subcommand_from list show test docs example help" -s q -l quiet -d 'Print only the essential result on stdout and no notes'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and not __fish_seen_subcommand_from list show test docs example help" -s v -l verbose -d 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and not __fish_seen_subcommand_from list show test docs example help" -l debug -d 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and not __fish_seen_subcommand_from list show test docs example help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and not __fish_seen_subcommand_from list show test docs example help" -s V -l version -d 'Print version'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and not __fish_seen_subcommand_from list show test docs example help" -f -a "list" -d 'List every rule: id, severity, family and title (with -q, the ids alone)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and not __fish_seen_subcommand_from list show test docs example help" -f -a "show" -d 'Show one rule in full: what it matches, why it matters, the fix'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and not __fish_seen_subcommand_from list show test docs example help" -f -a "test" -d 'Check every rule against its own examples (built-in, plus those in DIR)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and not __fish_seen_subcommand_from list show test docs example help" -f -a "docs" -d 'Print the rule reference as markdown (the source of docs/rules.md); with --rules, a team\'s own rules are documented beside the built-in ones'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and not __fish_seen_subcommand_from list show test docs example help" -f -a "example" -d 'Print a rule\'s example text, to try `diagnose` on it or to start a test log'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and not __fish_seen_subcommand_from list show test docs example help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from list" -l search -d 'Only the rules whose id, title, family, codes or remediation contain TEXT (any case)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from list" -l family -d 'Only the rules of this family (build, deployment, http, …)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from list" -l rules -d 'A directory of extra rule files to include (repeatable)' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]' -r -f -a "table\t'Human-readable text (colours only on a terminal)'
json\t'JSON with a versioned schema (`schema_version`)'
yaml\t'The same schema as json, in YAML'
sarif\t'SARIF 2.1.0 for GitHub code scanning (commands that report findings)'
junit\t'JUnit XML, one testcase per rule and input (commands that report findings)'
markdown\t'Markdown for pull requests and job summaries (findings commands, explain)'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from list" -l subscription -d 'Subscription id or name [default: the az CLI\'s default subscription]; `check --fleet` takes several (repeat it)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from list" -s g -l resource-group -d 'Resource group [default: az configure --defaults group=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from list" -s w -l workspace-name -d 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from list" -l cloud -d 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI\'s active cloud]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from list" -l tenant -d 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from list" -l auth -d 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]' -r -f -a "auto\t'The first that applies, in the order above'
env\t'Service principal from AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_CLIENT_SECRET'
workload\t'Workload identity from AZURE_FEDERATED_TOKEN_FILE (GitHub Actions OIDC)'
managed-identity\t'Managed identity of the Azure compute this runs on'
cli\t'The az CLI (or azd) sign-in'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from list" -l no-color -d 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print only the essential result on stdout and no notes'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from list" -l debug -d 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from show" -l rules -d 'A directory of extra rule files to include (repeatable)' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from show" -s o -l output -d 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]' -r -f -a "table\t'Human-readable text (colours only on a terminal)'
json\t'JSON with a versioned schema (`schema_version`)'
yaml\t'The same schema as json, in YAML'
sarif\t'SARIF 2.1.0 for GitHub code scanning (commands that report findings)'
junit\t'JUnit XML, one testcase per rule and input (commands that report findings)'
markdown\t'Markdown for pull requests and job summaries (findings commands, explain)'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from show" -l subscription -d 'Subscription id or name [default: the az CLI\'s default subscription]; `check --fleet` takes several (repeat it)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from show" -s g -l resource-group -d 'Resource group [default: az configure --defaults group=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from show" -s w -l workspace-name -d 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from show" -l cloud -d 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI\'s active cloud]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from show" -l tenant -d 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from show" -l auth -d 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]' -r -f -a "auto\t'The first that applies, in the order above'
env\t'Service principal from AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_CLIENT_SECRET'
workload\t'Workload identity from AZURE_FEDERATED_TOKEN_FILE (GitHub Actions OIDC)'
managed-identity\t'Managed identity of the Azure compute this runs on'
cli\t'The az CLI (or azd) sign-in'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from show" -l no-color -d 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print only the essential result on stdout and no notes'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from show" -l debug -d 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from test" -s o -l output -d 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]' -r -f -a "table\t'Human-readable text (colours only on a terminal)'
json\t'JSON with a versioned schema (`schema_version`)'
yaml\t'The same schema as json, in YAML'
sarif\t'SARIF 2.1.0 for GitHub code scanning (commands that report findings)'
junit\t'JUnit XML, one testcase per rule and input (commands that report findings)'
markdown\t'Markdown for pull requests and job summaries (findings commands, explain)'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from test" -l subscription -d 'Subscription id or name [default: the az CLI\'s default subscription]; `check --fleet` takes several (repeat it)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from test" -s g -l resource-group -d 'Resource group [default: az configure --defaults group=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from test" -s w -l workspace-name -d 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from test" -l cloud -d 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI\'s active cloud]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from test" -l tenant -d 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from test" -l auth -d 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]' -r -f -a "auto\t'The first that applies, in the order above'
env\t'Service principal from AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_CLIENT_SECRET'
workload\t'Workload identity from AZURE_FEDERATED_TOKEN_FILE (GitHub Actions OIDC)'
managed-identity\t'Managed identity of the Azure compute this runs on'
cli\t'The az CLI (or azd) sign-in'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from test" -l no-color -d 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from test" -s q -l quiet -d 'Print only the essential result on stdout and no notes'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from test" -s v -l verbose -d 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from test" -l debug -d 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from test" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from test" -s V -l version -d 'Print version'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from docs" -l rules -d 'A directory of extra rule files to include (repeatable)' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from docs" -s o -l output -d 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]' -r -f -a "table\t'Human-readable text (colours only on a terminal)'
json\t'JSON with a versioned schema (`schema_version`)'
yaml\t'The same schema as json, in YAML'
sarif\t'SARIF 2.1.0 for GitHub code scanning (commands that report findings)'
junit\t'JUnit XML, one testcase per rule and input (commands that report findings)'
markdown\t'Markdown for pull requests and job summaries (findings commands, explain)'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from docs" -l subscription -d 'Subscription id or name [default: the az CLI\'s default subscription]; `check --fleet` takes several (repeat it)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from docs" -s g -l resource-group -d 'Resource group [default: az configure --defaults group=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from docs" -s w -l workspace-name -d 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from docs" -l cloud -d 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI\'s active cloud]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from docs" -l tenant -d 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from docs" -l auth -d 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]' -r -f -a "auto\t'The first that applies, in the order above'
env\t'Service principal from AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_CLIENT_SECRET'
workload\t'Workload identity from AZURE_FEDERATED_TOKEN_FILE (GitHub Actions OIDC)'
managed-identity\t'Managed identity of the Azure compute this runs on'
cli\t'The az CLI (or azd) sign-in'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from docs" -l no-color -d 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from docs" -s q -l quiet -d 'Print only the essential result on stdout and no notes'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from docs" -s v -l verbose -d 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from docs" -l debug -d 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from docs" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from docs" -s V -l version -d 'Print version'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from example" -l number -d 'Which example, from 1' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from example" -l rules -d 'A directory of extra rule files to include (repeatable)' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from example" -s o -l output -d 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]' -r -f -a "table\t'Human-readable text (colours only on a terminal)'
json\t'JSON with a versioned schema (`schema_version`)'
yaml\t'The same schema as json, in YAML'
sarif\t'SARIF 2.1.0 for GitHub code scanning (commands that report findings)'
junit\t'JUnit XML, one testcase per rule and input (commands that report findings)'
markdown\t'Markdown for pull requests and job summaries (findings commands, explain)'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from example" -l subscription -d 'Subscription id or name [default: the az CLI\'s default subscription]; `check --fleet` takes several (repeat it)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from example" -s g -l resource-group -d 'Resource group [default: az configure --defaults group=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from example" -s w -l workspace-name -d 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from example" -l cloud -d 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI\'s active cloud]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from example" -l tenant -d 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from example" -l auth -d 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]' -r -f -a "auto\t'The first that applies, in the order above'
env\t'Service principal from AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_CLIENT_SECRET'
workload\t'Workload identity from AZURE_FEDERATED_TOKEN_FILE (GitHub Actions OIDC)'
managed-identity\t'Managed identity of the Azure compute this runs on'
cli\t'The az CLI (or azd) sign-in'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from example" -l no-match -d 'Print the example that must not match instead of the one that must'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from example" -l no-color -d 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from example" -s q -l quiet -d 'Print only the essential result on stdout and no notes'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from example" -s v -l verbose -d 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from example" -l debug -d 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from example" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from example" -s V -l version -d 'Print version'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from help" -f -a "list" -d 'List every rule: id, severity, family and title (with -q, the ids alone)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show one rule in full: what it matches, why it matters, the fix'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from help" -f -a "test" -d 'Check every rule against its own examples (built-in, plus those in DIR)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from help" -f -a "docs" -d 'Print the rule reference as markdown (the source of docs/rules.md); with --rules, a team\'s own rules are documented beside the built-in ones'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from help" -f -a "example" -d 'Print a rule\'s example text, to try `diagnose` on it or to start a test log'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rules; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand replicas" -l rps -d 'Target requests per second, a decimal greater than 0 (e.g. 20 or 0.5)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand replicas" -l latency -d 'Time to process one request: 10, 10s, 250ms, 1.5s, 2m or PT10S (pick a high percentile) [default: 10s]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand replicas" -l max-concurrent -d 'max_concurrent_requests_per_instance, a whole number ≥ 1 [default: 1, or the deployment file\'s]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand replicas" -l utilization -d 'Target utilization: 0.7, 70% or 70, in (0, 100%] [default: 70%, or the deployment file\'s]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand replicas" -l instances -d 'Evaluate this existing instance count: the rps it sustains and whether it meets --rps' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand replicas" -s f -l deployment-file -d 'An az ml online deployment YAML to read request_settings, scale_settings and instance_count from; flags override its values' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand replicas" -s e -l endpoint-name -d 'Read the settings from this online endpoint\'s deployment in Azure (-n names it; without -n, the endpoint\'s only deployment)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand replicas" -s n -l name -d 'The deployment to read, with -e' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand replicas" -s o -l output -d 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]' -r -f -a "table\t'Human-readable text (colours only on a terminal)'
json\t'JSON with a versioned schema (`schema_version`)'
yaml\t'The same schema as json, in YAML'
sarif\t'SARIF 2.1.0 for GitHub code scanning (commands that report findings)'
junit\t'JUnit XML, one testcase per rule and input (commands that report findings)'
markdown\t'Markdown for pull requests and job summaries (findings commands, explain)'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand replicas" -l subscription -d 'Subscription id or name [default: the az CLI\'s default subscription]; `check --fleet` takes several (repeat it)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand replicas" -s g -l resource-group -d 'Resource group [default: az configure --defaults group=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand replicas" -s w -l workspace-name -d 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand replicas" -l cloud -d 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI\'s active cloud]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand replicas" -l tenant -d 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand replicas" -l auth -d 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]' -r -f -a "auto\t'The first that applies, in the order above'
env\t'Service principal from AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_CLIENT_SECRET'
workload\t'Workload identity from AZURE_FEDERATED_TOKEN_FILE (GitHub Actions OIDC)'
managed-identity\t'Managed identity of the Azure compute this runs on'
cli\t'The az CLI (or azd) sign-in'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand replicas" -l no-color -d 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand replicas" -s q -l quiet -d 'Print only the essential result on stdout and no notes'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand replicas" -s v -l verbose -d 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand replicas" -l debug -d 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand replicas" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand replicas" -s V -l version -d 'Print version'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -s e -l endpoint-name -d 'The online endpoint [default: the name in --from, or `endpoint:` in .amldoctor.yaml]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -s n -l name -d 'Send every request to this deployment (the azureml-model-deployment header), so a deployment with 0 % traffic is reached too' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l data -d 'The request body: a file, or - for standard input' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l content-type -d 'The body\'s content type' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l count -d 'How many requests to send (more than 100 needs --force)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l concurrency -d 'How many requests at once (more than 8 needs --force)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l timeout -d 'Give up on a request after this long: 30, 30s, 500ms, PT2M [default: 30s]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l rps -d 'Requests per second the endpoint must serve: the instances that needs at the measured p95 latency, by the `replicas` formula' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l from -d 'The endpoint\'s JSON (and its deployments\', for the 429 ceiling) instead of reading Azure: what `az ml online-endpoint show -o json` or the REST API prints (repeatable)' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l key-env -d 'With --from: the environment variable that holds the endpoint\'s key' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l token-env -d 'With --from: the environment variable that holds a token (an AML token, or an Entra token for https://ml.azure.com)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l rules -d 'A directory of extra rule files (repeatable); added to the built-in catalogue' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l fail-on -d 'Exit 1 when a finding at or above this severity is reported (and not suppressed or in the baseline)' -r -f -a "error\t'Fail on errors only (default)'
warning\t'Fail on warnings and errors'
info\t'Fail on any finding'
never\t'Never fail because of findings'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l min-severity -d 'Show findings at or above this severity [default: warning for table and markdown, info for the machine formats]; the gate still counts every finding' -r -f -a "info\t'Context worth knowing; not a problem by itself'
warning\t'Likely to cause trouble'
error\t'A failure and its cause'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l ignore -d 'Do not report this rule (repeatable); for accepted findings prefer a suppression with a reason in .amldoctor.yaml' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l baseline -d 'Findings in this baseline file (from --write-baseline) are reported as unchanged and do not fail the gate; only new ones do' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l write-baseline -d 'Write every current finding to FILE as a baseline, then apply it' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l output-file -d 'Also write a report to a file: FORMAT=PATH (e.g. sarif=results.sarif), or a PATH whose extension names the format (.sarif .json .yaml .xml .md); repeatable' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l sarif-category -d 'The SARIF run\'s category (runs[].automationDetails.id), so code scanning keeps the uploads of different jobs apart [default: amldoctor/COMMAND/]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l markdown-limit -d 'The most bytes markdown on stdout may have: a longer report keeps its summary and the first findings, and says how many it left out (a pull-request comment takes 65,536 characters, which bytes never undercount; a job summary 1 MiB; 0 for no limit). A markdown --output-file is always whole' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -s o -l output -d 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]' -r -f -a "table\t'Human-readable text (colours only on a terminal)'
json\t'JSON with a versioned schema (`schema_version`)'
yaml\t'The same schema as json, in YAML'
sarif\t'SARIF 2.1.0 for GitHub code scanning (commands that report findings)'
junit\t'JUnit XML, one testcase per rule and input (commands that report findings)'
markdown\t'Markdown for pull requests and job summaries (findings commands, explain)'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l subscription -d 'Subscription id or name [default: the az CLI\'s default subscription]; `check --fleet` takes several (repeat it)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -s g -l resource-group -d 'Resource group [default: az configure --defaults group=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -s w -l workspace-name -d 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l cloud -d 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI\'s active cloud]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l tenant -d 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l auth -d 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]' -r -f -a "auto\t'The first that applies, in the order above'
env\t'Service principal from AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_CLIENT_SECRET'
workload\t'Workload identity from AZURE_FEDERATED_TOKEN_FILE (GitHub Actions OIDC)'
managed-identity\t'Managed identity of the Azure compute this runs on'
cli\t'The az CLI (or azd) sign-in'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l force -d 'Allow up to 10,000 requests and 64 at once (a load on a live endpoint: its callers share it)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l sarif-keep-suppressed -d 'Keep suppressed and baseline-unchanged findings in SARIF, each result then saying whether it is suppressed and new (code scanning ignores both and shows them open)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l junit-file-attribute -d 'Put a `file` attribute on every JUnit testcase, as GitLab shows it (Jenkins xUnit\'s junit-10.xsd has it on testsuites only, where it always is)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l no-color -d 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -s q -l quiet -d 'Print only the essential result on stdout and no notes'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -s v -l verbose -d 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -l debug -d 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand score" -s V -l version -d 'Print version'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and not __fish_seen_subcommand_from online parallel help" -s o -l output -d 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]' -r -f -a "table\t'Human-readable text (colours only on a terminal)'
json\t'JSON with a versioned schema (`schema_version`)'
yaml\t'The same schema as json, in YAML'
sarif\t'SARIF 2.1.0 for GitHub code scanning (commands that report findings)'
junit\t'JUnit XML, one testcase per rule and input (commands that report findings)'
markdown\t'Markdown for pull requests and job summaries (findings commands, explain)'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and not __fish_seen_subcommand_from online parallel help" -l subscription -d 'Subscription id or name [default: the az CLI\'s default subscription]; `check --fleet` takes several (repeat it)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and not __fish_seen_subcommand_from online parallel help" -s g -l resource-group -d 'Resource group [default: az configure --defaults group=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and not __fish_seen_subcommand_from online parallel help" -s w -l workspace-name -d 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and not __fish_seen_subcommand_from online parallel help" -l cloud -d 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI\'s active cloud]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and not __fish_seen_subcommand_from online parallel help" -l tenant -d 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and not __fish_seen_subcommand_from online parallel help" -l auth -d 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]' -r -f -a "auto\t'The first that applies, in the order above'
env\t'Service principal from AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_CLIENT_SECRET'
workload\t'Workload identity from AZURE_FEDERATED_TOKEN_FILE (GitHub Actions OIDC)'
managed-identity\t'Managed identity of the Azure compute this runs on'
cli\t'The az CLI (or azd) sign-in'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and not __fish_seen_subcommand_from online parallel help" -l no-color -d 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and not __fish_seen_subcommand_from online parallel help" -s q -l quiet -d 'Print only the essential result on stdout and no notes'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and not __fish_seen_subcommand_from online parallel help" -s v -l verbose -d 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and not __fish_seen_subcommand_from online parallel help" -l debug -d 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and not __fish_seen_subcommand_from online parallel help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and not __fish_seen_subcommand_from online parallel help" -s V -l version -d 'Print version'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and not __fish_seen_subcommand_from online parallel help" -f -a "online" -d 'Start the inference server with the scoring script and send it requests'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and not __fish_seen_subcommand_from online parallel help" -f -a "parallel" -d 'Run a ParallelRunStep entry script over local inputs, as the driver would'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and not __fish_seen_subcommand_from online parallel help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -l entry-script -d 'The scoring script [default: the deployment file\'s code_configuration.scoring_script]' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -l model-dir -d 'The model folder, set as AZUREML_MODEL_DIR (what the platform downloads the registered model to)' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -l data -d 'A request body to POST to /score (repeatable) [default: the sample of the script\'s input schema, when it declares one]' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -l content-type -d 'The request bodies\' content type' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -l deployment-file -d 'The online deployment YAML: its probes bound the start-up, its request_timeout_ms the requests, and its environment_variables are set' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -l python -d 'The Python interpreter to run the server with [default: $CONDA_PREFIX\'s, else $VIRTUAL_ENV\'s, else python3]' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -l timeout -d 'The longest the server may take to start, and each request: 120, 90s, 2m, PT2M' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -l out -d 'Keep the server\'s log in this folder (otherwise a temporary folder, removed)' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -l rules -d 'A directory of extra rule files (repeatable); added to the built-in catalogue' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -l fail-on -d 'Exit 1 when a finding at or above this severity is reported (and not suppressed or in the baseline)' -r -f -a "error\t'Fail on errors only (default)'
warning\t'Fail on warnings and errors'
info\t'Fail on any finding'
never\t'Never fail because of findings'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -l min-severity -d 'Show findings at or above this severity [default: warning for table and markdown, info for the machine formats]; the gate still counts every finding' -r -f -a "info\t'Context worth knowing; not a problem by itself'
warning\t'Likely to cause trouble'
error\t'A failure and its cause'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -l ignore -d 'Do not report this rule (repeatable); for accepted findings prefer a suppression with a reason in .amldoctor.yaml' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -l baseline -d 'Findings in this baseline file (from --write-baseline) are reported as unchanged and do not fail the gate; only new ones do' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -l write-baseline -d 'Write every current finding to FILE as a baseline, then apply it' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -l output-file -d 'Also write a report to a file: FORMAT=PATH (e.g. sarif=results.sarif), or a PATH whose extension names the format (.sarif .json .yaml .xml .md); repeatable' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -l sarif-category -d 'The SARIF run\'s category (runs[].automationDetails.id), so code scanning keeps the uploads of different jobs apart [default: amldoctor/COMMAND/]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -l markdown-limit -d 'The most bytes markdown on stdout may have: a longer report keeps its summary and the first findings, and says how many it left out (a pull-request comment takes 65,536 characters, which bytes never undercount; a job summary 1 MiB; 0 for no limit). A markdown --output-file is always whole' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -s o -l output -d 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]' -r -f -a "table\t'Human-readable text (colours only on a terminal)'
json\t'JSON with a versioned schema (`schema_version`)'
yaml\t'The same schema as json, in YAML'
sarif\t'SARIF 2.1.0 for GitHub code scanning (commands that report findings)'
junit\t'JUnit XML, one testcase per rule and input (commands that report findings)'
markdown\t'Markdown for pull requests and job summaries (findings commands, explain)'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -l subscription -d 'Subscription id or name [default: the az CLI\'s default subscription]; `check --fleet` takes several (repeat it)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -s g -l resource-group -d 'Resource group [default: az configure --defaults group=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -s w -l workspace-name -d 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -l cloud -d 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI\'s active cloud]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -l tenant -d 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -l auth -d 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]' -r -f -a "auto\t'The first that applies, in the order above'
env\t'Service principal from AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_CLIENT_SECRET'
workload\t'Workload identity from AZURE_FEDERATED_TOKEN_FILE (GitHub Actions OIDC)'
managed-identity\t'Managed identity of the Azure compute this runs on'
cli\t'The az CLI (or azd) sign-in'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -l sarif-keep-suppressed -d 'Keep suppressed and baseline-unchanged findings in SARIF, each result then saying whether it is suppressed and new (code scanning ignores both and shows them open)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -l junit-file-attribute -d 'Put a `file` attribute on every JUnit testcase, as GitLab shows it (Jenkins xUnit\'s junit-10.xsd has it on testsuites only, where it always is)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -l no-color -d 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -s q -l quiet -d 'Print only the essential result on stdout and no notes'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -s v -l verbose -d 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -l debug -d 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from online" -s V -l version -d 'Print version'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l entry-script -d 'The entry script [default: the job file\'s task.entry_script]' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l input -d 'An input file or folder (repeatable): a sample of the job\'s inputs' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l input-type -d 'Files (run() gets paths) or tabular (run() gets a DataFrame) [default: tabular when the job file\'s input is an mltable, else file]' -r -f -a "file\t'run() gets a list of file paths'
tabular\t'run() gets a pandas DataFrame (CSV, Parquet, JSON lines)'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l mini-batch-size -d 'Items per mini-batch (a count of files) or a size of table data (1MB, 512KB) [default: the job file\'s, else 10 files or 1MB]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l processes -d 'Worker processes run in parallel [default: the job file\'s max_concurrency_per_instance, else 2]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l run-invocation-timeout -d 'Seconds each run() may take [default: the job file\'s retry_settings.timeout, else 60]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l output-action -d 'What happens to run()\'s results [default: with a job file, append-row when its task has append_row_to, else summary-only; without one, append-row]' -r -f -a "append-row\t'Every result is a row of the output file: run() must return one per input'
summary-only\t'Only the counts matter: run() may return anything'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l job-file -d 'The v2 parallel job YAML (or a pipeline with one parallel step)' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l arg -d 'A program argument passed to the entry script, as the driver passes them (repeatable; use the = form: --arg=--threshold=0.5)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l python -d 'The Python interpreter [default: $CONDA_PREFIX\'s, else $VIRTUAL_ENV\'s, else python3]' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l out -d 'Write the job\'s log tree and outputs here and keep them (otherwise a temporary folder, removed)' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l timeout -d 'The longest the whole rehearsal may take: 600, 10m, PT10M' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l rules -d 'A directory of extra rule files (repeatable); added to the built-in catalogue' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l fail-on -d 'Exit 1 when a finding at or above this severity is reported (and not suppressed or in the baseline)' -r -f -a "error\t'Fail on errors only (default)'
warning\t'Fail on warnings and errors'
info\t'Fail on any finding'
never\t'Never fail because of findings'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l min-severity -d 'Show findings at or above this severity [default: warning for table and markdown, info for the machine formats]; the gate still counts every finding' -r -f -a "info\t'Context worth knowing; not a problem by itself'
warning\t'Likely to cause trouble'
error\t'A failure and its cause'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l ignore -d 'Do not report this rule (repeatable); for accepted findings prefer a suppression with a reason in .amldoctor.yaml' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l baseline -d 'Findings in this baseline file (from --write-baseline) are reported as unchanged and do not fail the gate; only new ones do' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l write-baseline -d 'Write every current finding to FILE as a baseline, then apply it' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l output-file -d 'Also write a report to a file: FORMAT=PATH (e.g. sarif=results.sarif), or a PATH whose extension names the format (.sarif .json .yaml .xml .md); repeatable' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l sarif-category -d 'The SARIF run\'s category (runs[].automationDetails.id), so code scanning keeps the uploads of different jobs apart [default: amldoctor/COMMAND/]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l markdown-limit -d 'The most bytes markdown on stdout may have: a longer report keeps its summary and the first findings, and says how many it left out (a pull-request comment takes 65,536 characters, which bytes never undercount; a job summary 1 MiB; 0 for no limit). A markdown --output-file is always whole' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -s o -l output -d 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]' -r -f -a "table\t'Human-readable text (colours only on a terminal)'
json\t'JSON with a versioned schema (`schema_version`)'
yaml\t'The same schema as json, in YAML'
sarif\t'SARIF 2.1.0 for GitHub code scanning (commands that report findings)'
junit\t'JUnit XML, one testcase per rule and input (commands that report findings)'
markdown\t'Markdown for pull requests and job summaries (findings commands, explain)'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l subscription -d 'Subscription id or name [default: the az CLI\'s default subscription]; `check --fleet` takes several (repeat it)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -s g -l resource-group -d 'Resource group [default: az configure --defaults group=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -s w -l workspace-name -d 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l cloud -d 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI\'s active cloud]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l tenant -d 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l auth -d 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]' -r -f -a "auto\t'The first that applies, in the order above'
env\t'Service principal from AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_CLIENT_SECRET'
workload\t'Workload identity from AZURE_FEDERATED_TOKEN_FILE (GitHub Actions OIDC)'
managed-identity\t'Managed identity of the Azure compute this runs on'
cli\t'The az CLI (or azd) sign-in'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l sarif-keep-suppressed -d 'Keep suppressed and baseline-unchanged findings in SARIF, each result then saying whether it is suppressed and new (code scanning ignores both and shows them open)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l junit-file-attribute -d 'Put a `file` attribute on every JUnit testcase, as GitLab shows it (Jenkins xUnit\'s junit-10.xsd has it on testsuites only, where it always is)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l no-color -d 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -s q -l quiet -d 'Print only the essential result on stdout and no notes'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -s v -l verbose -d 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -l debug -d 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from parallel" -s V -l version -d 'Print version'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from help" -f -a "online" -d 'Start the inference server with the scoring script and send it requests'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from help" -f -a "parallel" -d 'Run a ParallelRunStep entry script over local inputs, as the driver would'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand rehearse; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand mcp" -l root -d 'A folder whose files the tools may read (repeatable) [default: the working directory]' -r -F
complete -c amldoctor -n "__fish_amldoctor_using_subcommand mcp" -s o -l output -d 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]' -r -f -a "table\t'Human-readable text (colours only on a terminal)'
json\t'JSON with a versioned schema (`schema_version`)'
yaml\t'The same schema as json, in YAML'
sarif\t'SARIF 2.1.0 for GitHub code scanning (commands that report findings)'
junit\t'JUnit XML, one testcase per rule and input (commands that report findings)'
markdown\t'Markdown for pull requests and job summaries (findings commands, explain)'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand mcp" -l subscription -d 'Subscription id or name [default: the az CLI\'s default subscription]; `check --fleet` takes several (repeat it)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand mcp" -s g -l resource-group -d 'Resource group [default: az configure --defaults group=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand mcp" -s w -l workspace-name -d 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand mcp" -l cloud -d 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI\'s active cloud]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand mcp" -l tenant -d 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand mcp" -l auth -d 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]' -r -f -a "auto\t'The first that applies, in the order above'
env\t'Service principal from AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_CLIENT_SECRET'
workload\t'Workload identity from AZURE_FEDERATED_TOKEN_FILE (GitHub Actions OIDC)'
managed-identity\t'Managed identity of the Azure compute this runs on'
cli\t'The az CLI (or azd) sign-in'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand mcp" -l allow-azure -d 'Also serve diagnose_deployment, check_workspace and get_logs, which read Azure'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand mcp" -l no-color -d 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand mcp" -s q -l quiet -d 'Print only the essential result on stdout and no notes'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand mcp" -s v -l verbose -d 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand mcp" -l debug -d 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand mcp" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand mcp" -s V -l version -d 'Print version'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand completions" -s o -l output -d 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]' -r -f -a "table\t'Human-readable text (colours only on a terminal)'
json\t'JSON with a versioned schema (`schema_version`)'
yaml\t'The same schema as json, in YAML'
sarif\t'SARIF 2.1.0 for GitHub code scanning (commands that report findings)'
junit\t'JUnit XML, one testcase per rule and input (commands that report findings)'
markdown\t'Markdown for pull requests and job summaries (findings commands, explain)'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand completions" -l subscription -d 'Subscription id or name [default: the az CLI\'s default subscription]; `check --fleet` takes several (repeat it)' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand completions" -s g -l resource-group -d 'Resource group [default: az configure --defaults group=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand completions" -s w -l workspace-name -d 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand completions" -l cloud -d 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI\'s active cloud]' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand completions" -l tenant -d 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID' -r
complete -c amldoctor -n "__fish_amldoctor_using_subcommand completions" -l auth -d 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]' -r -f -a "auto\t'The first that applies, in the order above'
env\t'Service principal from AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_CLIENT_SECRET'
workload\t'Workload identity from AZURE_FEDERATED_TOKEN_FILE (GitHub Actions OIDC)'
managed-identity\t'Managed identity of the Azure compute this runs on'
cli\t'The az CLI (or azd) sign-in'"
complete -c amldoctor -n "__fish_amldoctor_using_subcommand completions" -l no-color -d 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand completions" -s q -l quiet -d 'Print only the essential result on stdout and no notes'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand completions" -s v -l verbose -d 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand completions" -l debug -d 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand completions" -s V -l version -d 'Print version'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand help; and not __fish_seen_subcommand_from logs diagnose check lint explain rules replicas score rehearse mcp completions help" -f -a "logs" -d 'Print an online deployment\'s container logs, or save them (and a ParallelRunStep run\'s log tree) as a bundle, read from Azure'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand help; and not __fish_seen_subcommand_from logs diagnose check lint explain rules replicas score rehearse mcp completions help" -f -a "diagnose" -d 'Find out why a deployment or a batch job failed, from logs you have or read live'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand help; and not __fish_seen_subcommand_from logs diagnose check lint explain rules replicas score rehearse mcp completions help" -f -a "check" -d 'Check the configuration of a workspace, its Key Vault, private endpoints and online deployments, read live from Azure or from saved JSON'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand help; and not __fish_seen_subcommand_from logs diagnose check lint explain rules replicas score rehearse mcp completions help" -f -a "lint" -d 'Check the files you are about to deploy, before `az ml online-deployment create`'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand help; and not __fish_seen_subcommand_from logs diagnose check lint explain rules replicas score rehearse mcp completions help" -f -a "explain" -d 'Explain a deployment error code, an HTTP status of a scoring request, or a rule'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand help; and not __fish_seen_subcommand_from logs diagnose check lint explain rules replicas score rehearse mcp completions help" -f -a "rules" -d 'List, show, test and document the rule catalogue'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand help; and not __fish_seen_subcommand_from logs diagnose check lint explain rules replicas score rehearse mcp completions help" -f -a "replicas" -d 'Size an online deployment: how many instances a request rate needs, and the 429 ceiling of pending requests'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand help; and not __fish_seen_subcommand_from logs diagnose check lint explain rules replicas score rehearse mcp completions help" -f -a "score" -d 'Send scoring requests to an online endpoint and explain what the caller gets back'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand help; and not __fish_seen_subcommand_from logs diagnose check lint explain rules replicas score rehearse mcp completions help" -f -a "rehearse" -d 'Run the scoring script or the ParallelRunStep entry script locally, as the platform would, and diagnose what happens'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand help; and not __fish_seen_subcommand_from logs diagnose check lint explain rules replicas score rehearse mcp completions help" -f -a "mcp" -d 'Serve the diagnosis to AI agents over the Model Context Protocol, on stdio'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand help; and not __fish_seen_subcommand_from logs diagnose check lint explain rules replicas score rehearse mcp completions help" -f -a "completions" -d 'Print a shell completion script to stdout'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand help; and not __fish_seen_subcommand_from logs diagnose check lint explain rules replicas score rehearse mcp completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand help; and __fish_seen_subcommand_from rules" -f -a "list" -d 'List every rule: id, severity, family and title (with -q, the ids alone)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand help; and __fish_seen_subcommand_from rules" -f -a "show" -d 'Show one rule in full: what it matches, why it matters, the fix'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand help; and __fish_seen_subcommand_from rules" -f -a "test" -d 'Check every rule against its own examples (built-in, plus those in DIR)'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand help; and __fish_seen_subcommand_from rules" -f -a "docs" -d 'Print the rule reference as markdown (the source of docs/rules.md); with --rules, a team\'s own rules are documented beside the built-in ones'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand help; and __fish_seen_subcommand_from rules" -f -a "example" -d 'Print a rule\'s example text, to try `diagnose` on it or to start a test log'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand help; and __fish_seen_subcommand_from rehearse" -f -a "online" -d 'Start the inference server with the scoring script and send it requests'
complete -c amldoctor -n "__fish_amldoctor_using_subcommand help; and __fish_seen_subcommand_from rehearse" -f -a "parallel" -d 'Run a ParallelRunStep entry script over local inputs, as the driver would'
