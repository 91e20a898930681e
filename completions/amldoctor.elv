
use builtin;
use str;

set edit:completion:arg-completer[amldoctor] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'amldoctor'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'amldoctor'= {
            cand -o 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --output 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --subscription 'Subscription id or name [default: the az CLI''s default subscription]'
            cand -g 'Resource group [default: az configure --defaults group=…]'
            cand --resource-group 'Resource group [default: az configure --defaults group=…]'
            cand -w 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --workspace-name 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --cloud 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]'
            cand --auth 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]'
            cand --no-color 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
            cand -q 'Print only the essential result on stdout and no notes'
            cand --quiet 'Print only the essential result on stdout and no notes'
            cand -v 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --verbose 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --debug 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand logs 'Print an online deployment''s container logs, or save them (and a ParallelRunStep run''s log tree) as a bundle, read from Azure'
            cand diagnose 'Find out why a deployment or a batch job failed, from logs you have or read live'
            cand check 'Check the configuration of a workspace, its Key Vault, private endpoints and online deployments, read live from Azure or from saved JSON'
            cand explain 'Explain a deployment error code, an HTTP status of a scoring request, or a rule'
            cand rules 'List, show, test and document the rule catalogue'
            cand replicas 'Size an online deployment: how many instances a request rate needs, and the 429 ceiling of pending requests'
            cand completions 'Print a shell completion script to stdout'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'amldoctor;logs'= {
            cand -e 'The online endpoint'
            cand --endpoint-name 'The online endpoint'
            cand -n 'The deployment [default: the endpoint''s only deployment]'
            cand --name 'The deployment [default: the endpoint''s only deployment]'
            cand --container 'Which container''s log'
            cand -l 'How many lines from the end, as az does'
            cand --lines 'How many lines from the end, as az does'
            cand --interval 'Seconds between reads with --follow'
            cand --run 'A ParallelRunStep run (or the pipeline run holding it) whose log tree to download'
            cand --out 'Save a bundle into this folder (with manifest.json) instead of printing; an interrupted --run download resumes where it stopped'
            cand --jobs 'Parallel downloads with --run'
            cand -o 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --output 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --subscription 'Subscription id or name [default: the az CLI''s default subscription]'
            cand -g 'Resource group [default: az configure --defaults group=…]'
            cand --resource-group 'Resource group [default: az configure --defaults group=…]'
            cand -w 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --workspace-name 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --cloud 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]'
            cand --auth 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]'
            cand -f 'Keep reading the log and print new lines as they come, until interrupted (Ctrl-C)'
            cand --follow 'Keep reading the log and print new lines as they come, until interrupted (Ctrl-C)'
            cand --no-color 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
            cand -q 'Print only the essential result on stdout and no notes'
            cand --quiet 'Print only the essential result on stdout and no notes'
            cand -v 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --verbose 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --debug 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'amldoctor;diagnose'= {
            cand --kind 'Read every input as this kind instead of detecting it'
            cand -e 'Diagnose this online endpoint live: its logs and settings are read from Azure'
            cand --endpoint-name 'Diagnose this online endpoint live: its logs and settings are read from Azure'
            cand -n 'The deployment, with -e [default: the endpoint''s only deployment]'
            cand --name 'The deployment, with -e [default: the endpoint''s only deployment]'
            cand --run 'Diagnose this ParallelRunStep run (or its pipeline run) live: its log tree is downloaded from Azure'
            cand --save 'With -e or --run: keep what was read from Azure as a bundle in DIR'
            cand --rules 'A directory of extra rule files (repeatable); added to the built-in catalogue'
            cand -j 'Worker threads for scanning [default: the number of CPUs]'
            cand --jobs 'Worker threads for scanning [default: the number of CPUs]'
            cand --fail-on 'Exit 1 when a finding at or above this severity is reported (and not suppressed or in the baseline)'
            cand --min-severity 'Show findings at or above this severity [default: warning for table and markdown, info for the machine formats]; the gate still counts every finding'
            cand --ignore 'Do not report this rule (repeatable); for accepted findings prefer a suppression with a reason in .amldoctor.yaml'
            cand --baseline 'Findings in this baseline file (from --write-baseline) are reported as unchanged and do not fail the gate; only new ones do'
            cand --write-baseline 'Write every current finding to FILE as a baseline, then apply it'
            cand --output-file 'Also write a report to a file: FORMAT=PATH (e.g. sarif=results.sarif), or a PATH whose extension names the format (.sarif .json .yaml .xml .md); repeatable'
            cand -o 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --output 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --subscription 'Subscription id or name [default: the az CLI''s default subscription]'
            cand -g 'Resource group [default: az configure --defaults group=…]'
            cand --resource-group 'Resource group [default: az configure --defaults group=…]'
            cand -w 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --workspace-name 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --cloud 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]'
            cand --auth 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]'
            cand --no-color 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
            cand -q 'Print only the essential result on stdout and no notes'
            cand --quiet 'Print only the essential result on stdout and no notes'
            cand -v 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --verbose 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --debug 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'amldoctor;check'= {
            cand --from 'JSON of the resources: files, directories, or `-` for standard input (repeatable); without it, they are read from Azure'
            cand -e 'The online endpoint to check, when reading from Azure'
            cand --endpoint-name 'The online endpoint to check, when reading from Azure'
            cand -n 'Its deployment, with -e [default: every deployment of the endpoint]'
            cand --name 'Its deployment, with -e [default: every deployment of the endpoint]'
            cand --save 'When reading from Azure: keep what was read as a bundle in DIR'
            cand --rps 'Requests per second the deployment must serve: checks the instance count with the `replicas` formula'
            cand --latency 'Time one request takes, for --rps: 10, 250ms, PT10S [default: 10s]'
            cand --host 'dns: a host to resolve besides those the resources name; a URL is taken for its host (repeatable)'
            cand --nameserver 'dns: a DNS server to ask besides the system resolver (repeatable); Azure DNS, 168.63.129.16, answers only inside an Azure virtual network'
            cand --expect-cidr 'dns: an address range every answer must fall in (repeatable)'
            cand --rules 'A directory of extra rule files (repeatable); added to the built-in catalogue'
            cand --fail-on 'Exit 1 when a finding at or above this severity is reported (and not suppressed or in the baseline)'
            cand --min-severity 'Show findings at or above this severity [default: warning for table and markdown, info for the machine formats]; the gate still counts every finding'
            cand --ignore 'Do not report this rule (repeatable); for accepted findings prefer a suppression with a reason in .amldoctor.yaml'
            cand --baseline 'Findings in this baseline file (from --write-baseline) are reported as unchanged and do not fail the gate; only new ones do'
            cand --write-baseline 'Write every current finding to FILE as a baseline, then apply it'
            cand --output-file 'Also write a report to a file: FORMAT=PATH (e.g. sarif=results.sarif), or a PATH whose extension names the format (.sarif .json .yaml .xml .md); repeatable'
            cand -o 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --output 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --subscription 'Subscription id or name [default: the az CLI''s default subscription]'
            cand -g 'Resource group [default: az configure --defaults group=…]'
            cand --resource-group 'Resource group [default: az configure --defaults group=…]'
            cand -w 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --workspace-name 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --cloud 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]'
            cand --auth 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]'
            cand --no-system-resolver 'dns: ask only the --nameserver servers, not this machine''s resolver'
            cand --no-color 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
            cand -q 'Print only the essential result on stdout and no notes'
            cand --quiet 'Print only the essential result on stdout and no notes'
            cand -v 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --verbose 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --debug 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'amldoctor;explain'= {
            cand -o 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --output 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --subscription 'Subscription id or name [default: the az CLI''s default subscription]'
            cand -g 'Resource group [default: az configure --defaults group=…]'
            cand --resource-group 'Resource group [default: az configure --defaults group=…]'
            cand -w 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --workspace-name 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --cloud 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]'
            cand --auth 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]'
            cand --no-color 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
            cand -q 'Print only the essential result on stdout and no notes'
            cand --quiet 'Print only the essential result on stdout and no notes'
            cand -v 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --verbose 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --debug 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'amldoctor;rules'= {
            cand -o 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --output 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --subscription 'Subscription id or name [default: the az CLI''s default subscription]'
            cand -g 'Resource group [default: az configure --defaults group=…]'
            cand --resource-group 'Resource group [default: az configure --defaults group=…]'
            cand -w 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --workspace-name 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --cloud 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]'
            cand --auth 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]'
            cand --no-color 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
            cand -q 'Print only the essential result on stdout and no notes'
            cand --quiet 'Print only the essential result on stdout and no notes'
            cand -v 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --verbose 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --debug 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'List every rule: id, severity, family and title'
            cand show 'Show one rule in full: what it matches, why it matters, the fix'
            cand test 'Check every rule against its own examples (built-in, plus those in DIR)'
            cand docs 'Print the rule reference as markdown (the source of docs/rules.md)'
            cand example 'Print a rule''s example text, to try `diagnose` on it or to start a test log'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'amldoctor;rules;list'= {
            cand --rules 'A directory of extra rule files to include (repeatable)'
            cand -o 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --output 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --subscription 'Subscription id or name [default: the az CLI''s default subscription]'
            cand -g 'Resource group [default: az configure --defaults group=…]'
            cand --resource-group 'Resource group [default: az configure --defaults group=…]'
            cand -w 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --workspace-name 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --cloud 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]'
            cand --auth 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]'
            cand --no-color 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
            cand -q 'Print only the essential result on stdout and no notes'
            cand --quiet 'Print only the essential result on stdout and no notes'
            cand -v 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --verbose 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --debug 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'amldoctor;rules;show'= {
            cand --rules 'A directory of extra rule files to include (repeatable)'
            cand -o 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --output 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --subscription 'Subscription id or name [default: the az CLI''s default subscription]'
            cand -g 'Resource group [default: az configure --defaults group=…]'
            cand --resource-group 'Resource group [default: az configure --defaults group=…]'
            cand -w 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --workspace-name 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --cloud 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]'
            cand --auth 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]'
            cand --no-color 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
            cand -q 'Print only the essential result on stdout and no notes'
            cand --quiet 'Print only the essential result on stdout and no notes'
            cand -v 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --verbose 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --debug 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'amldoctor;rules;test'= {
            cand -o 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --output 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --subscription 'Subscription id or name [default: the az CLI''s default subscription]'
            cand -g 'Resource group [default: az configure --defaults group=…]'
            cand --resource-group 'Resource group [default: az configure --defaults group=…]'
            cand -w 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --workspace-name 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --cloud 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]'
            cand --auth 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]'
            cand --no-color 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
            cand -q 'Print only the essential result on stdout and no notes'
            cand --quiet 'Print only the essential result on stdout and no notes'
            cand -v 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --verbose 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --debug 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'amldoctor;rules;docs'= {
            cand -o 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --output 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --subscription 'Subscription id or name [default: the az CLI''s default subscription]'
            cand -g 'Resource group [default: az configure --defaults group=…]'
            cand --resource-group 'Resource group [default: az configure --defaults group=…]'
            cand -w 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --workspace-name 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --cloud 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]'
            cand --auth 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]'
            cand --no-color 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
            cand -q 'Print only the essential result on stdout and no notes'
            cand --quiet 'Print only the essential result on stdout and no notes'
            cand -v 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --verbose 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --debug 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'amldoctor;rules;example'= {
            cand --number 'Which example, from 1 [default: 1]'
            cand --rules 'A directory of extra rule files to include (repeatable)'
            cand -o 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --output 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --subscription 'Subscription id or name [default: the az CLI''s default subscription]'
            cand -g 'Resource group [default: az configure --defaults group=…]'
            cand --resource-group 'Resource group [default: az configure --defaults group=…]'
            cand -w 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --workspace-name 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --cloud 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]'
            cand --auth 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]'
            cand --no-match 'Print the example that must not match instead of the one that must'
            cand --no-color 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
            cand -q 'Print only the essential result on stdout and no notes'
            cand --quiet 'Print only the essential result on stdout and no notes'
            cand -v 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --verbose 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --debug 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'amldoctor;rules;help'= {
            cand list 'List every rule: id, severity, family and title'
            cand show 'Show one rule in full: what it matches, why it matters, the fix'
            cand test 'Check every rule against its own examples (built-in, plus those in DIR)'
            cand docs 'Print the rule reference as markdown (the source of docs/rules.md)'
            cand example 'Print a rule''s example text, to try `diagnose` on it or to start a test log'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'amldoctor;rules;help;list'= {
        }
        &'amldoctor;rules;help;show'= {
        }
        &'amldoctor;rules;help;test'= {
        }
        &'amldoctor;rules;help;docs'= {
        }
        &'amldoctor;rules;help;example'= {
        }
        &'amldoctor;rules;help;help'= {
        }
        &'amldoctor;replicas'= {
            cand --rps 'Target requests per second, a decimal greater than 0 (e.g. 20 or 0.5)'
            cand --latency 'Time to process one request: 10, 10s, 250ms, 1.5s, 2m or PT10S (pick a high percentile) [default: 10s]'
            cand --max-concurrent 'max_concurrent_requests_per_instance, a whole number ≥ 1 [default: 1, or the deployment file''s]'
            cand --utilization 'Target utilization: 0.7, 70% or 70, in (0, 100%] [default: 70%, or the deployment file''s]'
            cand --instances 'Evaluate this existing instance count: the rps it sustains and whether it meets --rps'
            cand -f 'An az ml online deployment YAML to read request_settings, scale_settings and instance_count from; flags override its values'
            cand --deployment-file 'An az ml online deployment YAML to read request_settings, scale_settings and instance_count from; flags override its values'
            cand -e 'Read the settings from this online endpoint''s deployment in Azure (with -n)'
            cand --endpoint-name 'Read the settings from this online endpoint''s deployment in Azure (with -n)'
            cand -n 'The deployment to read, with -e'
            cand --name 'The deployment to read, with -e'
            cand -o 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --output 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --subscription 'Subscription id or name [default: the az CLI''s default subscription]'
            cand -g 'Resource group [default: az configure --defaults group=…]'
            cand --resource-group 'Resource group [default: az configure --defaults group=…]'
            cand -w 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --workspace-name 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --cloud 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]'
            cand --auth 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]'
            cand --no-color 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
            cand -q 'Print only the essential result on stdout and no notes'
            cand --quiet 'Print only the essential result on stdout and no notes'
            cand -v 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --verbose 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --debug 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'amldoctor;completions'= {
            cand -o 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --output 'Output format [default: table, or `output` in .amldoctor.yaml / $AMLDOCTOR_OUTPUT]'
            cand --subscription 'Subscription id or name [default: the az CLI''s default subscription]'
            cand -g 'Resource group [default: az configure --defaults group=…]'
            cand --resource-group 'Resource group [default: az configure --defaults group=…]'
            cand -w 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --workspace-name 'Azure Machine Learning workspace [default: az configure --defaults workspace=…]'
            cand --cloud 'Azure cloud: AzureCloud, AzureChinaCloud or AzureUSGovernment [default: the az CLI''s active cloud]'
            cand --auth 'How to sign in: auto tries a service principal from AZURE_CLIENT_ID/ AZURE_TENANT_ID/AZURE_CLIENT_SECRET, workload identity (AZURE_FEDERATED_TOKEN_FILE), App Service managed identity (IDENTITY_ENDPOINT), then az CLI / azd [default: auto]'
            cand --no-color 'Never use colours (also when NO_COLOR is set); colours are used only on a terminal'
            cand -q 'Print only the essential result on stdout and no notes'
            cand --quiet 'Print only the essential result on stdout and no notes'
            cand -v 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --verbose 'Print more: every input file of a ParallelRunStep tree, not a count per folder'
            cand --debug 'Print how each setting was resolved, and later HTTP traces, on stderr (secrets redacted)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'amldoctor;help'= {
            cand logs 'Print an online deployment''s container logs, or save them (and a ParallelRunStep run''s log tree) as a bundle, read from Azure'
            cand diagnose 'Find out why a deployment or a batch job failed, from logs you have or read live'
            cand check 'Check the configuration of a workspace, its Key Vault, private endpoints and online deployments, read live from Azure or from saved JSON'
            cand explain 'Explain a deployment error code, an HTTP status of a scoring request, or a rule'
            cand rules 'List, show, test and document the rule catalogue'
            cand replicas 'Size an online deployment: how many instances a request rate needs, and the 429 ceiling of pending requests'
            cand completions 'Print a shell completion script to stdout'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'amldoctor;help;logs'= {
        }
        &'amldoctor;help;diagnose'= {
        }
        &'amldoctor;help;check'= {
        }
        &'amldoctor;help;explain'= {
        }
        &'amldoctor;help;rules'= {
            cand list 'List every rule: id, severity, family and title'
            cand show 'Show one rule in full: what it matches, why it matters, the fix'
            cand test 'Check every rule against its own examples (built-in, plus those in DIR)'
            cand docs 'Print the rule reference as markdown (the source of docs/rules.md)'
            cand example 'Print a rule''s example text, to try `diagnose` on it or to start a test log'
        }
        &'amldoctor;help;rules;list'= {
        }
        &'amldoctor;help;rules;show'= {
        }
        &'amldoctor;help;rules;test'= {
        }
        &'amldoctor;help;rules;docs'= {
        }
        &'amldoctor;help;rules;example'= {
        }
        &'amldoctor;help;replicas'= {
        }
        &'amldoctor;help;completions'= {
        }
        &'amldoctor;help;help'= {
        }
    ]
    $completions[$command]
}
