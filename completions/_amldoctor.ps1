
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'amldoctor' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'amldoctor'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'amldoctor' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id or name [default: the az CLI''s default subscription]; `check --fleet` takes several (repeat it)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--workspace-name', '--workspace-name', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]')
            [CompletionResult]::new('--tenant', '--tenant', [CompletionResultType]::ParameterName, 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--debug', '--debug', [CompletionResultType]::ParameterName, 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('logs', 'logs', [CompletionResultType]::ParameterValue, 'Print an online deployment''s container logs, or save them (and a ParallelRunStep run''s log tree) as a bundle, read from Azure')
            [CompletionResult]::new('diagnose', 'diagnose', [CompletionResultType]::ParameterValue, 'Find out why a deployment or a batch job failed, from logs you have or read live')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check the configuration of a workspace, its Key Vault, private endpoints and online deployments, read live from Azure or from saved JSON')
            [CompletionResult]::new('lint', 'lint', [CompletionResultType]::ParameterValue, 'Check the files you are about to deploy, before `az ml online-deployment create`')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Explain a deployment error code, an HTTP status of a scoring request, or a rule')
            [CompletionResult]::new('rules', 'rules', [CompletionResultType]::ParameterValue, 'List, show, test and document the rule catalogue')
            [CompletionResult]::new('replicas', 'replicas', [CompletionResultType]::ParameterValue, 'Size an online deployment: how many instances a request rate needs, and the 429 ceiling of pending requests')
            [CompletionResult]::new('score', 'score', [CompletionResultType]::ParameterValue, 'Send scoring requests to an online endpoint and explain what the caller gets back')
            [CompletionResult]::new('rehearse', 'rehearse', [CompletionResultType]::ParameterValue, 'Run the scoring script or the ParallelRunStep entry script locally, as the platform would, and diagnose what happens')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve the diagnosis to AI agents over the Model Context Protocol, on stdio')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script to stdout')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'amldoctor;logs' {
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'The online endpoint')
            [CompletionResult]::new('--endpoint-name', '--endpoint-name', [CompletionResultType]::ParameterName, 'The online endpoint')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The deployment [default: the endpoint''s only deployment]')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The deployment [default: the endpoint''s only deployment]')
            [CompletionResult]::new('--container', '--container', [CompletionResultType]::ParameterName, 'Which container''s log')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'How many lines from the end, as az does')
            [CompletionResult]::new('--lines', '--lines', [CompletionResultType]::ParameterName, 'How many lines from the end, as az does')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'Seconds between reads with --follow (doubled while nothing new comes, up to 60; each read after the first asks for the last 200 lines)')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'A ParallelRunStep run (or the pipeline run holding it) whose log tree to download')
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'Save a bundle into this folder (with manifest.json) instead of printing; an interrupted --run download resumes where it stopped')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Parallel downloads with --run')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id or name [default: the az CLI''s default subscription]; `check --fleet` takes several (repeat it)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--workspace-name', '--workspace-name', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]')
            [CompletionResult]::new('--tenant', '--tenant', [CompletionResultType]::ParameterName, 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Keep reading the log and print new lines as they come, until interrupted (Ctrl-C)')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Keep reading the log and print new lines as they come, until interrupted (Ctrl-C)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--debug', '--debug', [CompletionResultType]::ParameterName, 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'amldoctor;diagnose' {
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Read every input as this kind instead of detecting it')
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'Diagnose this online endpoint live: its logs and settings are read from Azure')
            [CompletionResult]::new('--endpoint-name', '--endpoint-name', [CompletionResultType]::ParameterName, 'Diagnose this online endpoint live: its logs and settings are read from Azure')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The deployment, with -e [default: the endpoint''s only deployment]')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The deployment, with -e [default: the endpoint''s only deployment]')
            [CompletionResult]::new('--run', '--run', [CompletionResultType]::ParameterName, 'Diagnose this ParallelRunStep run (or its pipeline run) live: its log tree is downloaded from Azure')
            [CompletionResult]::new('--log-analytics', '--log-analytics', [CompletionResultType]::ParameterName, 'Diagnose from this Log Analytics workspace (its GUID, the workspace id) the online endpoints'' console and event logs, where their diagnostic settings send them; -e and -n narrow it to one endpoint or deployment. The rules'' literals run in Log Analytics as one filter, so only candidate lines are read')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'With --log-analytics: how far back to read: 24h, 90m, 7d, PT6H [default: 24h]')
            [CompletionResult]::new('--save', '--save', [CompletionResultType]::ParameterName, 'With -e, --run or --log-analytics: keep what was read from Azure as a bundle in DIR')
            [CompletionResult]::new('--rules', '--rules', [CompletionResultType]::ParameterName, 'A directory of extra rule files (repeatable); added to the built-in catalogue')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Worker threads for scanning [default: the number of CPUs]')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Worker threads for scanning [default: the number of CPUs]')
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'Exit 1 when a finding at or above this severity is reported (and not suppressed or in the baseline)')
            [CompletionResult]::new('--min-severity', '--min-severity', [CompletionResultType]::ParameterName, 'Show findings at or above this severity [default: warning for table and markdown, info for the machine formats]; the gate still counts every finding')
            [CompletionResult]::new('--ignore', '--ignore', [CompletionResultType]::ParameterName, 'Do not report this rule (repeatable); for accepted findings prefer a suppression with a reason in .amldoctor.yaml')
            [CompletionResult]::new('--baseline', '--baseline', [CompletionResultType]::ParameterName, 'Findings in this baseline file (from --write-baseline) are reported as unchanged and do not fail the gate; only new ones do')
            [CompletionResult]::new('--write-baseline', '--write-baseline', [CompletionResultType]::ParameterName, 'Write every current finding to FILE as a baseline, then apply it')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'Also write a report to a file: FORMAT=PATH (e.g. sarif=results.sarif), or a PATH whose extension names the format (.sarif .json .yaml .xml .md); repeatable')
            [CompletionResult]::new('--sarif-category', '--sarif-category', [CompletionResultType]::ParameterName, 'The SARIF run''s category (runs[].automationDetails.id), so code scanning keeps the uploads of different jobs apart [default: amldoctor/COMMAND/]')
            [CompletionResult]::new('--markdown-limit', '--markdown-limit', [CompletionResultType]::ParameterName, 'The most bytes markdown on stdout may have: a longer report keeps its summary and the first findings, and says how many it left out (a pull-request comment takes 65,536 characters, which bytes never undercount; a job summary 1 MiB; 0 for no limit). A markdown --output-file is always whole')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id or name [default: the az CLI''s default subscription]; `check --fleet` takes several (repeat it)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--workspace-name', '--workspace-name', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]')
            [CompletionResult]::new('--tenant', '--tenant', [CompletionResultType]::ParameterName, 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]')
            [CompletionResult]::new('--sarif-keep-suppressed', '--sarif-keep-suppressed', [CompletionResultType]::ParameterName, 'Keep suppressed and baseline-unchanged findings in SARIF, each result then saying whether it is suppressed and new (code scanning ignores both and shows them open)')
            [CompletionResult]::new('--junit-file-attribute', '--junit-file-attribute', [CompletionResultType]::ParameterName, 'Put a `file` attribute on every JUnit testcase, as GitLab shows it (Jenkins xUnit''s junit-10.xsd has it on testsuites only, where it always is)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--debug', '--debug', [CompletionResultType]::ParameterName, 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'amldoctor;check' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'JSON of the resources: files, directories, or `-` for standard input (repeatable); without it, they are read from Azure')
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'The online endpoint to check, when reading from Azure')
            [CompletionResult]::new('--endpoint-name', '--endpoint-name', [CompletionResultType]::ParameterName, 'The online endpoint to check, when reading from Azure')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Its deployment, with -e [default: every deployment of the endpoint]')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Its deployment, with -e [default: every deployment of the endpoint]')
            [CompletionResult]::new('--save', '--save', [CompletionResultType]::ParameterName, 'When reading from Azure: keep what was read as a bundle in DIR')
            [CompletionResult]::new('--rps', '--rps', [CompletionResultType]::ParameterName, 'Requests per second the deployment must serve: checks the instance count with the `replicas` formula')
            [CompletionResult]::new('--latency', '--latency', [CompletionResultType]::ParameterName, 'Time one request takes, for --rps: 10, 250ms, PT10S [default: 10s]')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'dns: a host to resolve besides those the resources name; a URL is taken for its host (repeatable)')
            [CompletionResult]::new('--nameserver', '--nameserver', [CompletionResultType]::ParameterName, 'dns: a DNS server to ask besides the system resolver (repeatable); Azure DNS, 168.63.129.16, answers only inside an Azure virtual network')
            [CompletionResult]::new('--expect-cidr', '--expect-cidr', [CompletionResultType]::ParameterName, 'dns: an address range every answer must fall in (repeatable)')
            [CompletionResult]::new('--management-group', '--management-group', [CompletionResultType]::ParameterName, 'With --fleet: a management group to query (repeatable)')
            [CompletionResult]::new('--rules', '--rules', [CompletionResultType]::ParameterName, 'A directory of extra rule files (repeatable); added to the built-in catalogue')
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'Exit 1 when a finding at or above this severity is reported (and not suppressed or in the baseline)')
            [CompletionResult]::new('--min-severity', '--min-severity', [CompletionResultType]::ParameterName, 'Show findings at or above this severity [default: warning for table and markdown, info for the machine formats]; the gate still counts every finding')
            [CompletionResult]::new('--ignore', '--ignore', [CompletionResultType]::ParameterName, 'Do not report this rule (repeatable); for accepted findings prefer a suppression with a reason in .amldoctor.yaml')
            [CompletionResult]::new('--baseline', '--baseline', [CompletionResultType]::ParameterName, 'Findings in this baseline file (from --write-baseline) are reported as unchanged and do not fail the gate; only new ones do')
            [CompletionResult]::new('--write-baseline', '--write-baseline', [CompletionResultType]::ParameterName, 'Write every current finding to FILE as a baseline, then apply it')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'Also write a report to a file: FORMAT=PATH (e.g. sarif=results.sarif), or a PATH whose extension names the format (.sarif .json .yaml .xml .md); repeatable')
            [CompletionResult]::new('--sarif-category', '--sarif-category', [CompletionResultType]::ParameterName, 'The SARIF run''s category (runs[].automationDetails.id), so code scanning keeps the uploads of different jobs apart [default: amldoctor/COMMAND/]')
            [CompletionResult]::new('--markdown-limit', '--markdown-limit', [CompletionResultType]::ParameterName, 'The most bytes markdown on stdout may have: a longer report keeps its summary and the first findings, and says how many it left out (a pull-request comment takes 65,536 characters, which bytes never undercount; a job summary 1 MiB; 0 for no limit). A markdown --output-file is always whole')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id or name [default: the az CLI''s default subscription]; `check --fleet` takes several (repeat it)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--workspace-name', '--workspace-name', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]')
            [CompletionResult]::new('--tenant', '--tenant', [CompletionResultType]::ParameterName, 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]')
            [CompletionResult]::new('--no-system-resolver', '--no-system-resolver', [CompletionResultType]::ParameterName, 'dns: ask only the --nameserver servers, not this machine''s resolver')
            [CompletionResult]::new('--fleet', '--fleet', [CompletionResultType]::ParameterName, 'Every workspace in scope from one Azure Resource Graph query (with its Key Vault, registry, storage account, endpoints and deployments), checked workspace by workspace; the scope is --subscription (repeatable) or --management-group')
            [CompletionResult]::new('--sarif-keep-suppressed', '--sarif-keep-suppressed', [CompletionResultType]::ParameterName, 'Keep suppressed and baseline-unchanged findings in SARIF, each result then saying whether it is suppressed and new (code scanning ignores both and shows them open)')
            [CompletionResult]::new('--junit-file-attribute', '--junit-file-attribute', [CompletionResultType]::ParameterName, 'Put a `file` attribute on every JUnit testcase, as GitLab shows it (Jenkins xUnit''s junit-10.xsd has it on testsuites only, where it always is)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--debug', '--debug', [CompletionResultType]::ParameterName, 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'amldoctor;lint' {
            [CompletionResult]::new('--rules', '--rules', [CompletionResultType]::ParameterName, 'A directory of extra rule files (repeatable); added to the built-in catalogue')
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'Exit 1 when a finding at or above this severity is reported (and not suppressed or in the baseline)')
            [CompletionResult]::new('--min-severity', '--min-severity', [CompletionResultType]::ParameterName, 'Show findings at or above this severity [default: warning for table and markdown, info for the machine formats]; the gate still counts every finding')
            [CompletionResult]::new('--ignore', '--ignore', [CompletionResultType]::ParameterName, 'Do not report this rule (repeatable); for accepted findings prefer a suppression with a reason in .amldoctor.yaml')
            [CompletionResult]::new('--baseline', '--baseline', [CompletionResultType]::ParameterName, 'Findings in this baseline file (from --write-baseline) are reported as unchanged and do not fail the gate; only new ones do')
            [CompletionResult]::new('--write-baseline', '--write-baseline', [CompletionResultType]::ParameterName, 'Write every current finding to FILE as a baseline, then apply it')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'Also write a report to a file: FORMAT=PATH (e.g. sarif=results.sarif), or a PATH whose extension names the format (.sarif .json .yaml .xml .md); repeatable')
            [CompletionResult]::new('--sarif-category', '--sarif-category', [CompletionResultType]::ParameterName, 'The SARIF run''s category (runs[].automationDetails.id), so code scanning keeps the uploads of different jobs apart [default: amldoctor/COMMAND/]')
            [CompletionResult]::new('--markdown-limit', '--markdown-limit', [CompletionResultType]::ParameterName, 'The most bytes markdown on stdout may have: a longer report keeps its summary and the first findings, and says how many it left out (a pull-request comment takes 65,536 characters, which bytes never undercount; a job summary 1 MiB; 0 for no limit). A markdown --output-file is always whole')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id or name [default: the az CLI''s default subscription]; `check --fleet` takes several (repeat it)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--workspace-name', '--workspace-name', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]')
            [CompletionResult]::new('--tenant', '--tenant', [CompletionResultType]::ParameterName, 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]')
            [CompletionResult]::new('--fix-suggestions', '--fix-suggestions', [CompletionResultType]::ParameterName, 'Also print, per file, the edited lines that would fix each finding (a unified diff with no context lines); files are never written')
            [CompletionResult]::new('--sarif-keep-suppressed', '--sarif-keep-suppressed', [CompletionResultType]::ParameterName, 'Keep suppressed and baseline-unchanged findings in SARIF, each result then saying whether it is suppressed and new (code scanning ignores both and shows them open)')
            [CompletionResult]::new('--junit-file-attribute', '--junit-file-attribute', [CompletionResultType]::ParameterName, 'Put a `file` attribute on every JUnit testcase, as GitLab shows it (Jenkins xUnit''s junit-10.xsd has it on testsuites only, where it always is)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--debug', '--debug', [CompletionResultType]::ParameterName, 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'amldoctor;explain' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id or name [default: the az CLI''s default subscription]; `check --fleet` takes several (repeat it)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--workspace-name', '--workspace-name', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]')
            [CompletionResult]::new('--tenant', '--tenant', [CompletionResultType]::ParameterName, 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--debug', '--debug', [CompletionResultType]::ParameterName, 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'amldoctor;rules' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id or name [default: the az CLI''s default subscription]; `check --fleet` takes several (repeat it)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--workspace-name', '--workspace-name', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]')
            [CompletionResult]::new('--tenant', '--tenant', [CompletionResultType]::ParameterName, 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--debug', '--debug', [CompletionResultType]::ParameterName, 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every rule: id, severity, family and title (with -q, the ids alone)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one rule in full: what it matches, why it matters, the fix')
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Check every rule against its own examples (built-in, plus those in DIR)')
            [CompletionResult]::new('docs', 'docs', [CompletionResultType]::ParameterValue, 'Print the rule reference as markdown (the source of docs/rules.md); with --rules, a team''s own rules are documented beside the built-in ones')
            [CompletionResult]::new('example', 'example', [CompletionResultType]::ParameterValue, 'Print a rule''s example text, to try `diagnose` on it or to start a test log')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'amldoctor;rules;list' {
            [CompletionResult]::new('--search', '--search', [CompletionResultType]::ParameterName, 'Only the rules whose id, title, family, codes or remediation contain TEXT (any case)')
            [CompletionResult]::new('--family', '--family', [CompletionResultType]::ParameterName, 'Only the rules of this family (build, deployment, http, …)')
            [CompletionResult]::new('--rules', '--rules', [CompletionResultType]::ParameterName, 'A directory of extra rule files to include (repeatable)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id or name [default: the az CLI''s default subscription]; `check --fleet` takes several (repeat it)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--workspace-name', '--workspace-name', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]')
            [CompletionResult]::new('--tenant', '--tenant', [CompletionResultType]::ParameterName, 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--debug', '--debug', [CompletionResultType]::ParameterName, 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'amldoctor;rules;show' {
            [CompletionResult]::new('--rules', '--rules', [CompletionResultType]::ParameterName, 'A directory of extra rule files to include (repeatable)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id or name [default: the az CLI''s default subscription]; `check --fleet` takes several (repeat it)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--workspace-name', '--workspace-name', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]')
            [CompletionResult]::new('--tenant', '--tenant', [CompletionResultType]::ParameterName, 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--debug', '--debug', [CompletionResultType]::ParameterName, 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'amldoctor;rules;test' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id or name [default: the az CLI''s default subscription]; `check --fleet` takes several (repeat it)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--workspace-name', '--workspace-name', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]')
            [CompletionResult]::new('--tenant', '--tenant', [CompletionResultType]::ParameterName, 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--debug', '--debug', [CompletionResultType]::ParameterName, 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'amldoctor;rules;docs' {
            [CompletionResult]::new('--rules', '--rules', [CompletionResultType]::ParameterName, 'A directory of extra rule files to include (repeatable)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id or name [default: the az CLI''s default subscription]; `check --fleet` takes several (repeat it)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--workspace-name', '--workspace-name', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]')
            [CompletionResult]::new('--tenant', '--tenant', [CompletionResultType]::ParameterName, 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--debug', '--debug', [CompletionResultType]::ParameterName, 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'amldoctor;rules;example' {
            [CompletionResult]::new('--number', '--number', [CompletionResultType]::ParameterName, 'Which example, from 1')
            [CompletionResult]::new('--rules', '--rules', [CompletionResultType]::ParameterName, 'A directory of extra rule files to include (repeatable)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id or name [default: the az CLI''s default subscription]; `check --fleet` takes several (repeat it)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--workspace-name', '--workspace-name', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]')
            [CompletionResult]::new('--tenant', '--tenant', [CompletionResultType]::ParameterName, 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]')
            [CompletionResult]::new('--no-match', '--no-match', [CompletionResultType]::ParameterName, 'Print the example that must not match instead of the one that must')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--debug', '--debug', [CompletionResultType]::ParameterName, 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'amldoctor;rules;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every rule: id, severity, family and title (with -q, the ids alone)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one rule in full: what it matches, why it matters, the fix')
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Check every rule against its own examples (built-in, plus those in DIR)')
            [CompletionResult]::new('docs', 'docs', [CompletionResultType]::ParameterValue, 'Print the rule reference as markdown (the source of docs/rules.md); with --rules, a team''s own rules are documented beside the built-in ones')
            [CompletionResult]::new('example', 'example', [CompletionResultType]::ParameterValue, 'Print a rule''s example text, to try `diagnose` on it or to start a test log')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'amldoctor;rules;help;list' {
            break
        }
        'amldoctor;rules;help;show' {
            break
        }
        'amldoctor;rules;help;test' {
            break
        }
        'amldoctor;rules;help;docs' {
            break
        }
        'amldoctor;rules;help;example' {
            break
        }
        'amldoctor;rules;help;help' {
            break
        }
        'amldoctor;replicas' {
            [CompletionResult]::new('--rps', '--rps', [CompletionResultType]::ParameterName, 'Target requests per second, a decimal greater than 0 (e.g. 20 or 0.5)')
            [CompletionResult]::new('--latency', '--latency', [CompletionResultType]::ParameterName, 'Time to process one request: 10, 10s, 250ms, 1.5s, 2m or PT10S (pick a high percentile) [default: 10s]')
            [CompletionResult]::new('--max-concurrent', '--max-concurrent', [CompletionResultType]::ParameterName, 'max_concurrent_requests_per_instance, a whole number ≥ 1 [default: 1, or the deployment file''s]')
            [CompletionResult]::new('--utilization', '--utilization', [CompletionResultType]::ParameterName, 'Target utilization: 0.7, 70% or 70, in (0, 100%] [default: 70%, or the deployment file''s]')
            [CompletionResult]::new('--instances', '--instances', [CompletionResultType]::ParameterName, 'Evaluate this existing instance count: the rps it sustains and whether it meets --rps')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'An az ml online deployment YAML to read request_settings, scale_settings and instance_count from; flags override its values')
            [CompletionResult]::new('--deployment-file', '--deployment-file', [CompletionResultType]::ParameterName, 'An az ml online deployment YAML to read request_settings, scale_settings and instance_count from; flags override its values')
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'Read the settings from this online endpoint''s deployment in Azure (-n names it; without -n, the endpoint''s only deployment)')
            [CompletionResult]::new('--endpoint-name', '--endpoint-name', [CompletionResultType]::ParameterName, 'Read the settings from this online endpoint''s deployment in Azure (-n names it; without -n, the endpoint''s only deployment)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The deployment to read, with -e')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The deployment to read, with -e')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id or name [default: the az CLI''s default subscription]; `check --fleet` takes several (repeat it)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--workspace-name', '--workspace-name', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]')
            [CompletionResult]::new('--tenant', '--tenant', [CompletionResultType]::ParameterName, 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--debug', '--debug', [CompletionResultType]::ParameterName, 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'amldoctor;score' {
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'The online endpoint [default: the name in --from, or `endpoint:` in .amldoctor.yaml]')
            [CompletionResult]::new('--endpoint-name', '--endpoint-name', [CompletionResultType]::ParameterName, 'The online endpoint [default: the name in --from, or `endpoint:` in .amldoctor.yaml]')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Send every request to this deployment (the azureml-model-deployment header), so a deployment with 0 % traffic is reached too')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Send every request to this deployment (the azureml-model-deployment header), so a deployment with 0 % traffic is reached too')
            [CompletionResult]::new('--data', '--data', [CompletionResultType]::ParameterName, 'The request body: a file, or - for standard input')
            [CompletionResult]::new('--content-type', '--content-type', [CompletionResultType]::ParameterName, 'The body''s content type')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'How many requests to send (more than 100 needs --force)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many requests at once (more than 8 needs --force)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this long: 30, 30s, 500ms, PT2M [default: 30s]')
            [CompletionResult]::new('--rps', '--rps', [CompletionResultType]::ParameterName, 'Requests per second the endpoint must serve: the instances that needs at the measured p95 latency, by the `replicas` formula')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'The endpoint''s JSON (and its deployments'', for the 429 ceiling) instead of reading Azure: what `az ml online-endpoint show -o json` or the REST API prints (repeatable)')
            [CompletionResult]::new('--key-env', '--key-env', [CompletionResultType]::ParameterName, 'With --from: the environment variable that holds the endpoint''s key')
            [CompletionResult]::new('--token-env', '--token-env', [CompletionResultType]::ParameterName, 'With --from: the environment variable that holds a token (an AML token, or an Entra token for https://ml.azure.com)')
            [CompletionResult]::new('--rules', '--rules', [CompletionResultType]::ParameterName, 'A directory of extra rule files (repeatable); added to the built-in catalogue')
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'Exit 1 when a finding at or above this severity is reported (and not suppressed or in the baseline)')
            [CompletionResult]::new('--min-severity', '--min-severity', [CompletionResultType]::ParameterName, 'Show findings at or above this severity [default: warning for table and markdown, info for the machine formats]; the gate still counts every finding')
            [CompletionResult]::new('--ignore', '--ignore', [CompletionResultType]::ParameterName, 'Do not report this rule (repeatable); for accepted findings prefer a suppression with a reason in .amldoctor.yaml')
            [CompletionResult]::new('--baseline', '--baseline', [CompletionResultType]::ParameterName, 'Findings in this baseline file (from --write-baseline) are reported as unchanged and do not fail the gate; only new ones do')
            [CompletionResult]::new('--write-baseline', '--write-baseline', [CompletionResultType]::ParameterName, 'Write every current finding to FILE as a baseline, then apply it')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'Also write a report to a file: FORMAT=PATH (e.g. sarif=results.sarif), or a PATH whose extension names the format (.sarif .json .yaml .xml .md); repeatable')
            [CompletionResult]::new('--sarif-category', '--sarif-category', [CompletionResultType]::ParameterName, 'The SARIF run''s category (runs[].automationDetails.id), so code scanning keeps the uploads of different jobs apart [default: amldoctor/COMMAND/]')
            [CompletionResult]::new('--markdown-limit', '--markdown-limit', [CompletionResultType]::ParameterName, 'The most bytes markdown on stdout may have: a longer report keeps its summary and the first findings, and says how many it left out (a pull-request comment takes 65,536 characters, which bytes never undercount; a job summary 1 MiB; 0 for no limit). A markdown --output-file is always whole')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id or name [default: the az CLI''s default subscription]; `check --fleet` takes several (repeat it)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--workspace-name', '--workspace-name', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]')
            [CompletionResult]::new('--tenant', '--tenant', [CompletionResultType]::ParameterName, 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Allow up to 10,000 requests and 64 at once (a load on a live endpoint: its callers share it)')
            [CompletionResult]::new('--sarif-keep-suppressed', '--sarif-keep-suppressed', [CompletionResultType]::ParameterName, 'Keep suppressed and baseline-unchanged findings in SARIF, each result then saying whether it is suppressed and new (code scanning ignores both and shows them open)')
            [CompletionResult]::new('--junit-file-attribute', '--junit-file-attribute', [CompletionResultType]::ParameterName, 'Put a `file` attribute on every JUnit testcase, as GitLab shows it (Jenkins xUnit''s junit-10.xsd has it on testsuites only, where it always is)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--debug', '--debug', [CompletionResultType]::ParameterName, 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'amldoctor;rehearse' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id or name [default: the az CLI''s default subscription]; `check --fleet` takes several (repeat it)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--workspace-name', '--workspace-name', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]')
            [CompletionResult]::new('--tenant', '--tenant', [CompletionResultType]::ParameterName, 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--debug', '--debug', [CompletionResultType]::ParameterName, 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('online', 'online', [CompletionResultType]::ParameterValue, 'Start the inference server with the scoring script and send it requests')
            [CompletionResult]::new('parallel', 'parallel', [CompletionResultType]::ParameterValue, 'Run a ParallelRunStep entry script over local inputs, as the driver would')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'amldoctor;rehearse;online' {
            [CompletionResult]::new('--entry-script', '--entry-script', [CompletionResultType]::ParameterName, 'The scoring script [default: the deployment file''s code_configuration.scoring_script]')
            [CompletionResult]::new('--model-dir', '--model-dir', [CompletionResultType]::ParameterName, 'The model folder, set as AZUREML_MODEL_DIR (what the platform downloads the registered model to)')
            [CompletionResult]::new('--data', '--data', [CompletionResultType]::ParameterName, 'A request body to POST to /score (repeatable) [default: the sample of the script''s input schema, when it declares one]')
            [CompletionResult]::new('--content-type', '--content-type', [CompletionResultType]::ParameterName, 'The request bodies'' content type')
            [CompletionResult]::new('--deployment-file', '--deployment-file', [CompletionResultType]::ParameterName, 'The online deployment YAML: its probes bound the start-up, its request_timeout_ms the requests, and its environment_variables are set')
            [CompletionResult]::new('--python', '--python', [CompletionResultType]::ParameterName, 'The Python interpreter to run the server with [default: $CONDA_PREFIX''s, else $VIRTUAL_ENV''s, else python3]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'The longest the server may take to start, and each request: 120, 90s, 2m, PT2M')
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'Keep the server''s log in this folder (otherwise a temporary folder, removed)')
            [CompletionResult]::new('--rules', '--rules', [CompletionResultType]::ParameterName, 'A directory of extra rule files (repeatable); added to the built-in catalogue')
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'Exit 1 when a finding at or above this severity is reported (and not suppressed or in the baseline)')
            [CompletionResult]::new('--min-severity', '--min-severity', [CompletionResultType]::ParameterName, 'Show findings at or above this severity [default: warning for table and markdown, info for the machine formats]; the gate still counts every finding')
            [CompletionResult]::new('--ignore', '--ignore', [CompletionResultType]::ParameterName, 'Do not report this rule (repeatable); for accepted findings prefer a suppression with a reason in .amldoctor.yaml')
            [CompletionResult]::new('--baseline', '--baseline', [CompletionResultType]::ParameterName, 'Findings in this baseline file (from --write-baseline) are reported as unchanged and do not fail the gate; only new ones do')
            [CompletionResult]::new('--write-baseline', '--write-baseline', [CompletionResultType]::ParameterName, 'Write every current finding to FILE as a baseline, then apply it')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'Also write a report to a file: FORMAT=PATH (e.g. sarif=results.sarif), or a PATH whose extension names the format (.sarif .json .yaml .xml .md); repeatable')
            [CompletionResult]::new('--sarif-category', '--sarif-category', [CompletionResultType]::ParameterName, 'The SARIF run''s category (runs[].automationDetails.id), so code scanning keeps the uploads of different jobs apart [default: amldoctor/COMMAND/]')
            [CompletionResult]::new('--markdown-limit', '--markdown-limit', [CompletionResultType]::ParameterName, 'The most bytes markdown on stdout may have: a longer report keeps its summary and the first findings, and says how many it left out (a pull-request comment takes 65,536 characters, which bytes never undercount; a job summary 1 MiB; 0 for no limit). A markdown --output-file is always whole')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id or name [default: the az CLI''s default subscription]; `check --fleet` takes several (repeat it)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--workspace-name', '--workspace-name', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]')
            [CompletionResult]::new('--tenant', '--tenant', [CompletionResultType]::ParameterName, 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]')
            [CompletionResult]::new('--sarif-keep-suppressed', '--sarif-keep-suppressed', [CompletionResultType]::ParameterName, 'Keep suppressed and baseline-unchanged findings in SARIF, each result then saying whether it is suppressed and new (code scanning ignores both and shows them open)')
            [CompletionResult]::new('--junit-file-attribute', '--junit-file-attribute', [CompletionResultType]::ParameterName, 'Put a `file` attribute on every JUnit testcase, as GitLab shows it (Jenkins xUnit''s junit-10.xsd has it on testsuites only, where it always is)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--debug', '--debug', [CompletionResultType]::ParameterName, 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'amldoctor;rehearse;parallel' {
            [CompletionResult]::new('--entry-script', '--entry-script', [CompletionResultType]::ParameterName, 'The entry script [default: the job file''s task.entry_script]')
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'An input file or folder (repeatable): a sample of the job''s inputs')
            [CompletionResult]::new('--input-type', '--input-type', [CompletionResultType]::ParameterName, 'Files (run() gets paths) or tabular (run() gets a DataFrame) [default: tabular when the job file''s input is an mltable, else file]')
            [CompletionResult]::new('--mini-batch-size', '--mini-batch-size', [CompletionResultType]::ParameterName, 'Items per mini-batch (a count of files) or a size of table data (1MB, 512KB) [default: the job file''s, else 10 files or 1MB]')
            [CompletionResult]::new('--processes', '--processes', [CompletionResultType]::ParameterName, 'Worker processes run in parallel [default: the job file''s max_concurrency_per_instance, else 2]')
            [CompletionResult]::new('--run-invocation-timeout', '--run-invocation-timeout', [CompletionResultType]::ParameterName, 'Seconds each run() may take [default: the job file''s retry_settings.timeout, else 60]')
            [CompletionResult]::new('--output-action', '--output-action', [CompletionResultType]::ParameterName, 'What happens to run()''s results [default: with a job file, append-row when its task has append_row_to, else summary-only; without one, append-row]')
            [CompletionResult]::new('--job-file', '--job-file', [CompletionResultType]::ParameterName, 'The v2 parallel job YAML (or a pipeline with one parallel step)')
            [CompletionResult]::new('--arg', '--arg', [CompletionResultType]::ParameterName, 'A program argument passed to the entry script, as the driver passes them (repeatable; use the = form: --arg=--threshold=0.5)')
            [CompletionResult]::new('--python', '--python', [CompletionResultType]::ParameterName, 'The Python interpreter [default: $CONDA_PREFIX''s, else $VIRTUAL_ENV''s, else python3]')
            [CompletionResult]::new('--out', '--out', [CompletionResultType]::ParameterName, 'Write the job''s log tree and outputs here and keep them (otherwise a temporary folder, removed)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'The longest the whole rehearsal may take: 600, 10m, PT10M')
            [CompletionResult]::new('--rules', '--rules', [CompletionResultType]::ParameterName, 'A directory of extra rule files (repeatable); added to the built-in catalogue')
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'Exit 1 when a finding at or above this severity is reported (and not suppressed or in the baseline)')
            [CompletionResult]::new('--min-severity', '--min-severity', [CompletionResultType]::ParameterName, 'Show findings at or above this severity [default: warning for table and markdown, info for the machine formats]; the gate still counts every finding')
            [CompletionResult]::new('--ignore', '--ignore', [CompletionResultType]::ParameterName, 'Do not report this rule (repeatable); for accepted findings prefer a suppression with a reason in .amldoctor.yaml')
            [CompletionResult]::new('--baseline', '--baseline', [CompletionResultType]::ParameterName, 'Findings in this baseline file (from --write-baseline) are reported as unchanged and do not fail the gate; only new ones do')
            [CompletionResult]::new('--write-baseline', '--write-baseline', [CompletionResultType]::ParameterName, 'Write every current finding to FILE as a baseline, then apply it')
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'Also write a report to a file: FORMAT=PATH (e.g. sarif=results.sarif), or a PATH whose extension names the format (.sarif .json .yaml .xml .md); repeatable')
            [CompletionResult]::new('--sarif-category', '--sarif-category', [CompletionResultType]::ParameterName, 'The SARIF run''s category (runs[].automationDetails.id), so code scanning keeps the uploads of different jobs apart [default: amldoctor/COMMAND/]')
            [CompletionResult]::new('--markdown-limit', '--markdown-limit', [CompletionResultType]::ParameterName, 'The most bytes markdown on stdout may have: a longer report keeps its summary and the first findings, and says how many it left out (a pull-request comment takes 65,536 characters, which bytes never undercount; a job summary 1 MiB; 0 for no limit). A markdown --output-file is always whole')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id or name [default: the az CLI''s default subscription]; `check --fleet` takes several (repeat it)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--workspace-name', '--workspace-name', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]')
            [CompletionResult]::new('--tenant', '--tenant', [CompletionResultType]::ParameterName, 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]')
            [CompletionResult]::new('--sarif-keep-suppressed', '--sarif-keep-suppressed', [CompletionResultType]::ParameterName, 'Keep suppressed and baseline-unchanged findings in SARIF, each result then saying whether it is suppressed and new (code scanning ignores both and shows them open)')
            [CompletionResult]::new('--junit-file-attribute', '--junit-file-attribute', [CompletionResultType]::ParameterName, 'Put a `file` attribute on every JUnit testcase, as GitLab shows it (Jenkins xUnit''s junit-10.xsd has it on testsuites only, where it always is)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--debug', '--debug', [CompletionResultType]::ParameterName, 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'amldoctor;rehearse;help' {
            [CompletionResult]::new('online', 'online', [CompletionResultType]::ParameterValue, 'Start the inference server with the scoring script and send it requests')
            [CompletionResult]::new('parallel', 'parallel', [CompletionResultType]::ParameterValue, 'Run a ParallelRunStep entry script over local inputs, as the driver would')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'amldoctor;rehearse;help;online' {
            break
        }
        'amldoctor;rehearse;help;parallel' {
            break
        }
        'amldoctor;rehearse;help;help' {
            break
        }
        'amldoctor;mcp' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'A folder whose files the tools may read (repeatable) [default: the working directory]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id or name [default: the az CLI''s default subscription]; `check --fleet` takes several (repeat it)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--workspace-name', '--workspace-name', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]')
            [CompletionResult]::new('--tenant', '--tenant', [CompletionResultType]::ParameterName, 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]')
            [CompletionResult]::new('--allow-azure', '--allow-azure', [CompletionResultType]::ParameterName, 'Also serve diagnose_deployment, check_workspace and get_logs, which read Azure')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--debug', '--debug', [CompletionResultType]::ParameterName, 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'amldoctor;completions' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]')
            [CompletionResult]::new('--subscription', '--subscription', [CompletionResultType]::ParameterName, 'Subscription id or name [default: the az CLI''s default subscription]; `check --fleet` takes several (repeat it)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('--resource-group', '--resource-group', [CompletionResultType]::ParameterName, 'Resource group [default: az configure --defaults group=…]')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--workspace-name', '--workspace-name', [CompletionResultType]::ParameterName, 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]')
            [CompletionResult]::new('--cloud', '--cloud', [CompletionResultType]::ParameterName, 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]')
            [CompletionResult]::new('--tenant', '--tenant', [CompletionResultType]::ParameterName, 'Entra tenant the az CLI sign-in asks for [default: the tenant azureProfile.json gives the subscription]; a service principal signs in to AZURE_TENANT_ID')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only the essential result on stdout and no notes')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print more: every input file of a ParallelRunStep tree, not a count per folder')
            [CompletionResult]::new('--debug', '--debug', [CompletionResultType]::ParameterName, 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'amldoctor;help' {
            [CompletionResult]::new('logs', 'logs', [CompletionResultType]::ParameterValue, 'Print an online deployment''s container logs, or save them (and a ParallelRunStep run''s log tree) as a bundle, read from Azure')
            [CompletionResult]::new('diagnose', 'diagnose', [CompletionResultType]::ParameterValue, 'Find out why a deployment or a batch job failed, from logs you have or read live')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check the configuration of a workspace, its Key Vault, private endpoints and online deployments, read live from Azure or from saved JSON')
            [CompletionResult]::new('lint', 'lint', [CompletionResultType]::ParameterValue, 'Check the files you are about to deploy, before `az ml online-deployment create`')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Explain a deployment error code, an HTTP status of a scoring request, or a rule')
            [CompletionResult]::new('rules', 'rules', [CompletionResultType]::ParameterValue, 'List, show, test and document the rule catalogue')
            [CompletionResult]::new('replicas', 'replicas', [CompletionResultType]::ParameterValue, 'Size an online deployment: how many instances a request rate needs, and the 429 ceiling of pending requests')
            [CompletionResult]::new('score', 'score', [CompletionResultType]::ParameterValue, 'Send scoring requests to an online endpoint and explain what the caller gets back')
            [CompletionResult]::new('rehearse', 'rehearse', [CompletionResultType]::ParameterValue, 'Run the scoring script or the ParallelRunStep entry script locally, as the platform would, and diagnose what happens')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve the diagnosis to AI agents over the Model Context Protocol, on stdio')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script to stdout')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'amldoctor;help;logs' {
            break
        }
        'amldoctor;help;diagnose' {
            break
        }
        'amldoctor;help;check' {
            break
        }
        'amldoctor;help;lint' {
            break
        }
        'amldoctor;help;explain' {
            break
        }
        'amldoctor;help;rules' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every rule: id, severity, family and title (with -q, the ids alone)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one rule in full: what it matches, why it matters, the fix')
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Check every rule against its own examples (built-in, plus those in DIR)')
            [CompletionResult]::new('docs', 'docs', [CompletionResultType]::ParameterValue, 'Print the rule reference as markdown (the source of docs/rules.md); with --rules, a team''s own rules are documented beside the built-in ones')
            [CompletionResult]::new('example', 'example', [CompletionResultType]::ParameterValue, 'Print a rule''s example text, to try `diagnose` on it or to start a test log')
            break
        }
        'amldoctor;help;rules;list' {
            break
        }
        'amldoctor;help;rules;show' {
            break
        }
        'amldoctor;help;rules;test' {
            break
        }
        'amldoctor;help;rules;docs' {
            break
        }
        'amldoctor;help;rules;example' {
            break
        }
        'amldoctor;help;replicas' {
            break
        }
        'amldoctor;help;score' {
            break
        }
        'amldoctor;help;rehearse' {
            [CompletionResult]::new('online', 'online', [CompletionResultType]::ParameterValue, 'Start the inference server with the scoring script and send it requests')
            [CompletionResult]::new('parallel', 'parallel', [CompletionResultType]::ParameterValue, 'Run a ParallelRunStep entry script over local inputs, as the driver would')
            break
        }
        'amldoctor;help;rehearse;online' {
            break
        }
        'amldoctor;help;rehearse;parallel' {
            break
        }
        'amldoctor;help;mcp' {
            break
        }
        'amldoctor;help;completions' {
            break
        }
        'amldoctor;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
