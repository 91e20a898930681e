//! The resource monitor's files under `perf/<node>/` (`sys/perf/<node>/` in some
//! versions): the node's memory and CPU (`node_resource_usage.csv`), each process's
//! memory (`processes_resource_usage.csv`), each disk's use (`node_disk_usage.csv`) and
//! the operating system's process list taken every `--resource_monitor_interval`
//! seconds (`os/<YYYYMMDDHH>/processes_<MM>`, the output of `ps` on Linux and of
//! `tasklist` on Windows).
//!
//! Only the node file's columns are documented; the other two CSVs are shown in the
//! documentation as screenshots and the snapshots are whatever `ps` printed, so every
//! column is found by what its name says (memory, pid, mount point, percent) and its
//! unit by what the header writes after it, never by position.

use super::csv::csv_fields;

/// Processes remembered per file: one per sampling time, which is a day of samples at
/// the default ten-minute interval and a week at one minute.
const MAX_SAMPLES: usize = 10_000;

/// One process's memory at one sampling time.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ProcessMemory {
    pub name: String,
    pub pid: Option<u64>,
    /// Resident memory in MB, when the source gives an amount.
    pub mb: Option<f64>,
    /// Share of the node's memory, when the source gives one.
    pub percent: Option<f64>,
    /// The sampling time as written.
    pub time: String,
    pub line: u64,
}

impl ProcessMemory {
    /// Orders readings: by amount when both have one, else by share.
    fn larger_than(&self, other: &ProcessMemory) -> bool {
        match (self.mb, other.mb) {
            (Some(a), Some(b)) => a > b,
            _ => self.percent.unwrap_or(0.0) > other.percent.unwrap_or(0.0),
        }
    }

    /// `process001 (pid 409): 11,140 MB at 2023-05-16T22:57:00`.
    pub(crate) fn describe(&self) -> String {
        let pid = self.pid.map(|p| format!(" (pid {p})")).unwrap_or_default();
        let amount = match (self.mb, self.percent) {
            (Some(mb), Some(p)) => format!("{} ({p} % of the node)", megabytes(mb)),
            (Some(mb), None) => megabytes(mb),
            (None, Some(p)) => format!("{p} % of the node's memory"),
            (None, None) => "an unknown amount".to_owned(),
        };
        let at = if self.time.is_empty() {
            String::new()
        } else {
            format!(" at {}", self.time)
        };
        format!("{}{pid}: {amount}{at}", self.name)
    }
}

/// `11,140 MB`: whole megabytes, as the process CSV writes them.
fn megabytes(mb: f64) -> String {
    let digits = format!("{:.0}", mb.max(0.0));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    format!("{out} MB")
}

/// The fullest reading of a node's disks.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DiskUse {
    /// Mount point, device or drive, as the file names it.
    pub disk: String,
    pub percent: f64,
    /// Space left, with the file's unit (`0.2 GB`), when it says.
    pub free: Option<String>,
    pub time: String,
    pub line: u64,
}

impl DiskUse {
    /// `/mnt 99.6 % used (0.2 GB free) at 2024-03-14T10:20:00`.
    pub(crate) fn describe(&self) -> String {
        let free = self
            .free
            .as_ref()
            .map(|f| format!(" ({f} free)"))
            .unwrap_or_default();
        let at = if self.time.is_empty() {
            String::new()
        } else {
            format!(" at {}", self.time)
        };
        let disk = if self.disk.is_empty() {
            "a disk"
        } else {
            &self.disk
        };
        format!("{disk} {} % used{free}{at}", round1(self.percent))
    }
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// What one perf file showed.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct PerfFacts {
    /// Peak `Memory Used Percent` of the node, its time and its line.
    pub peak_memory: Option<(f64, String, u64)>,
    pub peak_cpu: Option<f64>,
    /// The process holding the most memory at each sampling time, in file order.
    pub top_memory: Vec<ProcessMemory>,
    /// The highest use of any disk.
    pub fullest_disk: Option<DiskUse>,
}

/// Where a column is and what its values are in.
#[derive(Debug, Clone, Copy)]
struct Amount {
    index: usize,
    /// Multiplier to megabytes.
    to_mb: f64,
}

#[derive(Debug, Clone)]
enum Columns {
    Node {
        time: Option<usize>,
        memory_percent: Option<usize>,
        cpu_percent: Option<usize>,
    },
    Process {
        time: Option<usize>,
        pid: Option<usize>,
        name: Option<usize>,
        amount: Option<Amount>,
        percent: Option<usize>,
    },
    Disk {
        time: Option<usize>,
        disk: Option<usize>,
        percent: Option<usize>,
        used: Option<Amount>,
        total: Option<Amount>,
        free: Option<(usize, String)>,
    },
    /// `ps`: whitespace-separated, the last column takes the rest of the line.
    Ps {
        count: usize,
        pid: Option<usize>,
        command: Option<usize>,
        rss: Option<Amount>,
        percent: Option<usize>,
    },
    /// `tasklist`: fixed-width columns under a line of `=` runs.
    Tasklist { spans: Vec<(usize, usize)> },
}

/// Reads one perf file line by line (lines already cleaned and redacted).
#[derive(Debug, Default)]
pub(crate) struct PerfParser {
    columns: Option<Columns>,
    /// A `tasklist` header waiting for its `=====` line.
    tasklist_header: bool,
    /// The largest process of the sampling time being read.
    current: Option<ProcessMemory>,
}

/// The index of the first column whose name contains every word of one alternative,
/// the alternatives tried in order, skipping names that contain any of `not`.
fn find(header: &[String], alternatives: &[&[&str]], not: &[&str]) -> Option<usize> {
    alternatives.iter().find_map(|words| {
        header
            .iter()
            .position(|h| words.iter().all(|w| h.contains(w)) && !not.iter().any(|n| h.contains(n)))
    })
}

/// The multiplier to MB of a column named like `Memory Used (GB)` or `RSS` (KiB in `ps`).
fn unit_to_mb(name: &str, default: f64) -> f64 {
    let n = name.to_ascii_lowercase();
    if n.contains("(gb)") || n.contains("gib") || n.ends_with(" gb") {
        1024.0
    } else if n.contains("(kb)") || n.contains("kib") || n.ends_with(" kb") {
        1.0 / 1024.0
    } else if n.contains("(mb)") || n.contains("mib") || n.ends_with(" mb") {
        1.0
    } else if n.contains("bytes") || n.contains("(b)") {
        1.0 / (1024.0 * 1024.0)
    } else {
        default
    }
}

fn amount(header: &[String], index: Option<usize>, default: f64) -> Option<Amount> {
    index.map(|i| Amount {
        index: i,
        to_mb: unit_to_mb(&header[i], default),
    })
}

/// A number as the monitor writes it (`11140`, `1,234,567 K`, `97.1%`).
fn value_of(s: &str) -> Option<f64> {
    let t: String = s
        .trim()
        .trim_end_matches(['K', 'k', '%'])
        .chars()
        .filter(|c| *c != ',' && !c.is_whitespace())
        .collect();
    t.parse::<f64>().ok().filter(|f| f.is_finite())
}

fn field(fields: &[String], i: Option<usize>) -> Option<&str> {
    i.and_then(|i| fields.get(i)).map(|s| s.trim())
}

impl PerfParser {
    /// A line of `node_resource_usage.csv`; true when it held a reading.
    pub(crate) fn node_line(&mut self, facts: &mut PerfFacts, number: u64, text: &str) -> bool {
        let fields = csv_fields(text);
        let Some(Columns::Node {
            time,
            memory_percent,
            cpu_percent,
        }) = self.csv_columns(&fields, |h| {
            h.iter()
                .any(|c| c.contains("percent"))
                .then(|| Columns::Node {
                    time: find(h, &[&["time"]], &[]),
                    memory_percent: find(h, &[&["memory", "percent"], &["mem", "%"]], &[]),
                    cpu_percent: find(h, &[&["cpu", "percent"], &["cpu", "%"]], &[]),
                })
        })
        else {
            return false;
        };
        let time = field(&fields, time).unwrap_or_default().to_owned();
        let mut any = false;
        if let Some(m) = field(&fields, memory_percent).and_then(value_of) {
            any = true;
            if facts.peak_memory.as_ref().is_none_or(|(p, _, _)| m > *p) {
                facts.peak_memory = Some((m, time, number));
            }
        }
        if let Some(c) = field(&fields, cpu_percent).and_then(value_of) {
            any = true;
            facts.peak_cpu = Some(facts.peak_cpu.map_or(c, |p| p.max(c)));
        }
        any
    }

    /// A line of `processes_resource_usage.csv`; true when it held a reading.
    pub(crate) fn process_line(&mut self, facts: &mut PerfFacts, number: u64, text: &str) -> bool {
        let fields = csv_fields(text);
        let Some(Columns::Process {
            time,
            pid,
            name,
            amount: mb,
            percent,
        }) = self.csv_columns(&fields, process_columns)
        else {
            return false;
        };
        let reading = ProcessMemory {
            name: field(&fields, name).unwrap_or_default().to_owned(),
            pid: field(&fields, pid).and_then(|p| p.parse().ok()),
            mb: mb.and_then(|a| Some(value_of(fields.get(a.index)?)? * a.to_mb)),
            percent: field(&fields, percent).and_then(value_of),
            time: field(&fields, time).unwrap_or_default().to_owned(),
            line: number,
        };
        if reading.mb.is_none() && reading.percent.is_none() {
            return false;
        }
        self.sample(facts, reading);
        true
    }

    /// A line of `node_disk_usage.csv`; true when it held a reading.
    pub(crate) fn disk_line(&mut self, facts: &mut PerfFacts, number: u64, text: &str) -> bool {
        let fields = csv_fields(text);
        let Some(Columns::Disk {
            time,
            disk,
            percent,
            used,
            total,
            free,
        }) = self.csv_columns(&fields, disk_columns)
        else {
            return false;
        };
        let value =
            |a: Option<Amount>| a.and_then(|a| Some(value_of(fields.get(a.index)?)? * a.to_mb));
        let percent = field(&fields, percent).and_then(value_of).or_else(|| {
            let (u, t) = (value(used)?, value(total)?);
            (t > 0.0).then(|| u * 100.0 / t)
        });
        let Some(percent) = percent else {
            return false;
        };
        if facts
            .fullest_disk
            .as_ref()
            .is_none_or(|d| percent > d.percent)
        {
            facts.fullest_disk = Some(DiskUse {
                disk: field(&fields, disk).unwrap_or_default().to_owned(),
                percent,
                free: free.and_then(|(i, unit)| {
                    let v = fields.get(i)?.trim();
                    (!v.is_empty()).then(|| format!("{v}{unit}"))
                }),
                time: field(&fields, time).unwrap_or_default().to_owned(),
                line: number,
            });
        }
        true
    }

    /// A line of an `os/<YYYYMMDDHH>/processes_<MM>` snapshot taken at `time`; true
    /// when it named a process.
    pub(crate) fn snapshot_line(
        &mut self,
        facts: &mut PerfFacts,
        number: u64,
        text: &str,
        time: &str,
    ) -> bool {
        if text.trim().is_empty() {
            return false;
        }
        let Some(columns) = &self.columns else {
            self.snapshot_header(text);
            return false;
        };
        let reading = match columns {
            Columns::Ps {
                count,
                pid,
                command,
                rss,
                percent,
            } => {
                let fields: Vec<&str> = split_columns(text, *count);
                ProcessMemory {
                    name: command
                        .and_then(|i| fields.get(i))
                        .map(|c| short_command(c))
                        .unwrap_or_default(),
                    pid: pid.and_then(|i| fields.get(i)?.parse().ok()),
                    mb: rss.and_then(|a| Some(value_of(fields.get(a.index)?)? * a.to_mb)),
                    percent: percent.and_then(|i| value_of(fields.get(i)?)),
                    time: time.to_owned(),
                    line: number,
                }
            }
            Columns::Tasklist { spans } => {
                let cell = |i: usize| {
                    spans
                        .get(i)
                        .and_then(|&(a, b)| text.get(a.min(text.len())..b.min(text.len())))
                        .map(str::trim)
                };
                ProcessMemory {
                    name: cell(0).unwrap_or_default().to_owned(),
                    pid: cell(1).and_then(|p| p.parse().ok()),
                    mb: spans
                        .len()
                        .checked_sub(1)
                        .and_then(|last| text.get(spans[last].0.min(text.len())..))
                        .and_then(value_of)
                        .map(|kb| kb / 1024.0),
                    percent: None,
                    time: time.to_owned(),
                    line: number,
                }
            }
            _ => return false,
        };
        if reading.mb.is_none() && reading.percent.is_none() {
            return false;
        }
        self.sample(facts, reading);
        true
    }

    /// The snapshot's header: `ps` columns, or a `tasklist` header and then its rule line.
    fn snapshot_header(&mut self, text: &str) {
        let t = text.trim_end();
        if self.tasklist_header {
            if t.trim_start().starts_with('=') {
                let mut spans = Vec::new();
                let mut start = None;
                for (i, c) in t.char_indices() {
                    match (c == '=', start) {
                        (true, None) => start = Some(i),
                        (false, Some(s)) => {
                            spans.push((s, i));
                            start = None;
                        }
                        _ => {}
                    }
                }
                if let Some(s) = start {
                    spans.push((s, t.len()));
                }
                // The last column (memory) is right-aligned and may start before its rule.
                self.columns = Some(Columns::Tasklist { spans });
            }
            return;
        }
        if t.trim_start().starts_with("Image Name") {
            self.tasklist_header = true;
            return;
        }
        let names: Vec<String> = t.split_whitespace().map(str::to_ascii_uppercase).collect();
        let pos = |wanted: &[&str]| names.iter().position(|n| wanted.contains(&n.as_str()));
        let pid = pos(&["PID"]);
        let rss = pos(&["RSS", "RSZ", "RES"]);
        let percent = pos(&["%MEM", "PMEM", "MEM"]);
        if pid.is_none() || (rss.is_none() && percent.is_none()) {
            return;
        }
        self.columns = Some(Columns::Ps {
            count: names.len(),
            pid,
            command: pos(&["COMMAND", "CMD", "ARGS", "COMM", "UCOMM"]),
            // `ps` prints resident memory in KiB.
            rss: rss.map(|index| Amount {
                index,
                to_mb: 1.0 / 1024.0,
            }),
            percent,
        });
    }

    /// The CSV's columns once its header is known; until then, `build` is offered each
    /// line (lowercased) and the first it accepts is the header.
    fn csv_columns(
        &mut self,
        fields: &[String],
        build: impl Fn(&[String]) -> Option<Columns>,
    ) -> Option<Columns> {
        if self.columns.is_none() {
            let header: Vec<String> = fields
                .iter()
                .map(|s| s.trim().to_ascii_lowercase())
                .collect();
            self.columns = build(&header);
            return None;
        }
        self.columns.clone()
    }

    /// Keeps the largest process of each sampling time.
    fn sample(&mut self, facts: &mut PerfFacts, reading: ProcessMemory) {
        match &self.current {
            Some(c) if c.time == reading.time => {
                if reading.larger_than(c) {
                    self.current = Some(reading);
                }
            }
            _ => {
                self.flush(facts);
                self.current = Some(reading);
            }
        }
    }

    fn flush(&mut self, facts: &mut PerfFacts) {
        if let Some(c) = self.current.take() {
            if facts.top_memory.len() < MAX_SAMPLES {
                facts.top_memory.push(c);
            } else if let Some(last) = facts.top_memory.last_mut()
                && c.larger_than(last)
            {
                // Past the limit only the last slot moves, so the peak is still kept.
                *last = c;
            }
        }
    }

    /// Ends the file: the last sampling time's process is kept.
    pub(crate) fn finish(&mut self, facts: &mut PerfFacts) {
        self.flush(facts);
    }
}

fn process_columns(h: &[String]) -> Option<Columns> {
    let not_amount = ["percent", "%", "time", "peak"];
    let amount_at = find(
        h,
        &[&["memory", "used"], &["memory"], &["rss"], &["mem"]],
        &not_amount,
    );
    let percent = find(h, &[&["memory", "percent"], &["mem", "%"]], &[]);
    if amount_at.is_none() && percent.is_none() {
        return None;
    }
    Some(Columns::Process {
        time: find(h, &[&["time"]], &[]),
        pid: find(h, &[&["pid"], &["process", "id"]], &[]),
        name: find(h, &[&["name"], &["command"], &["cmd"]], &["time"]),
        amount: amount(h, amount_at, 1.0),
        percent,
    })
}

fn disk_columns(h: &[String]) -> Option<Columns> {
    let percent = find(h, &[&["percent"], &["%"]], &[]);
    let used = find(h, &[&["used"]], &["percent", "%"]);
    let total = find(h, &[&["total"], &["size"]], &["percent", "%"]);
    if percent.is_none() && (used.is_none() || total.is_none()) {
        return None;
    }
    let free = find(h, &[&["free"], &["avail"]], &["percent", "%"]).map(|i| {
        let to_mb = unit_to_mb(&h[i], 0.0);
        let unit = if to_mb == 1024.0 {
            " GB"
        } else if to_mb == 1.0 {
            " MB"
        } else {
            ""
        };
        (i, unit.to_owned())
    });
    Some(Columns::Disk {
        time: find(h, &[&["time"]], &[]),
        disk: find(
            h,
            &[
                &["mount"],
                &["path"],
                &["device"],
                &["partition"],
                &["drive"],
                &["disk"],
            ],
            &["percent", "%", "(", "used", "total", "free"],
        ),
        percent,
        used: amount(h, used, 1.0),
        total: amount(h, total, 1.0),
        free,
    })
}

/// Splits on runs of whitespace into at most `count` fields, the last taking the rest.
fn split_columns(text: &str, count: usize) -> Vec<&str> {
    let mut out = Vec::with_capacity(count);
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        if out.len() + 1 == count {
            out.push(rest.trim_end());
            break;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        out.push(&rest[..end]);
        rest = rest[end..].trim_start();
    }
    out
}

/// `python score.py` of `/azureml-envs/x/bin/python /mnt/…/score.py --flag …`: the
/// program and its first argument, without their folders.
fn short_command(command: &str) -> String {
    let base = |w: &str| w.rsplit(['/', '\\']).next().unwrap_or(w).to_owned();
    let mut words = command.split_whitespace();
    let Some(program) = words.next() else {
        return String::new();
    };
    let mut out = base(program);
    if let Some(arg) = words.next().filter(|a| !a.starts_with('-')) {
        out.push(' ');
        out.push_str(&base(arg));
    }
    out
}

/// The time of `os/<YYYYMMDDHH>/processes_<MM>` as `YYYY-MM-DDTHH:MM`.
pub(crate) fn snapshot_time(hour: &str, file: &str) -> Option<String> {
    let minute = file.strip_prefix("processes_")?;
    let minute = minute.split('.').next()?;
    let ok = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    if !ok(hour, 10) || !ok(minute, 2) {
        return None;
    }
    Some(format!(
        "{}-{}-{}T{}:{minute}",
        &hour[..4],
        &hour[4..6],
        &hour[6..8],
        &hour[8..10]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(
        lines: &[&str],
        f: impl Fn(&mut PerfParser, &mut PerfFacts, u64, &str) -> bool,
    ) -> PerfFacts {
        let mut p = PerfParser::default();
        let mut facts = PerfFacts::default();
        for (i, l) in lines.iter().enumerate() {
            f(&mut p, &mut facts, i as u64 + 1, l);
        }
        p.finish(&mut facts);
        facts
    }

    #[test]
    fn the_largest_process_of_each_sampling_time() {
        let f = read(
            &[
                "Utc Time,Pid,Process Name,Cpu Percent,Memory Used (MB)",
                "2023-05-16T22:56:00.6,408,process000,38.4,2390",
                "2023-05-16T22:56:00.6,409,process001,46.9,6880",
                "2023-05-16T22:57:00.6,408,process000,42.8,2410",
                "2023-05-16T22:57:00.6,409,process001,41.7,11140",
            ],
            PerfParser::process_line,
        );
        assert_eq!(f.top_memory.len(), 2);
        assert_eq!(f.top_memory[1].name, "process001");
        assert_eq!(f.top_memory[1].pid, Some(409));
        assert_eq!(f.top_memory[1].line, 5);
        assert_eq!(
            f.top_memory[1].describe(),
            "process001 (pid 409): 11,140 MB at 2023-05-16T22:57:00.6"
        );
    }

    #[test]
    fn process_memory_in_other_units_and_column_orders() {
        let f = read(
            &[
                "\"Process Id\",\"Name\",\"Memory Percent\",\"Memory RSS (GB)\",\"Time\"",
                "77,python,88.5,13.5,2024-01-02 03:04:05",
            ],
            PerfParser::process_line,
        );
        let p = &f.top_memory[0];
        assert_eq!(
            (p.pid, p.mb, p.percent),
            (Some(77), Some(13.5 * 1024.0), Some(88.5))
        );
        assert_eq!(
            p.describe(),
            "python (pid 77): 13,824 MB (88.5 % of the node) at 2024-01-02 03:04:05"
        );
    }

    #[test]
    fn the_fullest_disk_with_its_free_space() {
        let f = read(
            &[
                "Utc Time,Mount Point,Total (GB),Used (GB),Free (GB),Used Percent",
                "2024-03-14T10:00:00,/,29.0,14.2,14.8,49.0",
                "2024-03-14T10:00:00,/mnt,64.0,40.1,23.9,62.7",
                "2024-03-14T10:20:00,/mnt,64.0,63.8,0.2,99.7",
            ],
            PerfParser::disk_line,
        );
        let d = f.fullest_disk.unwrap();
        assert_eq!((d.disk.as_str(), d.percent, d.line), ("/mnt", 99.7, 4));
        assert_eq!(
            d.describe(),
            "/mnt 99.7 % used (0.2 GB free) at 2024-03-14T10:20:00"
        );
    }

    #[test]
    fn disk_percent_from_used_and_total_when_not_written() {
        let f = read(
            &["time,device,size (MB),used (MB)", "t1,/dev/sdb1,1000,990"],
            PerfParser::disk_line,
        );
        assert_eq!(f.fullest_disk.unwrap().percent, 99.0);
    }

    #[test]
    fn ps_snapshots_in_aux_and_custom_formats() {
        let aux = [
            "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND",
            "root           1  0.0  0.0   1088     4 ?        Ss   10:00   0:00 /sbin/init",
            "azureuser   4242 98.0 91.2 15000000 14900000 ? Rl 10:01 5:00 /azureml-envs/azureml_1/bin/python /mnt/azureml/cr/j/1/exe/wd/driver/amlbi_main.py --scoring_module_name score.py",
            "azureuser   4243  1.0  2.0 900000 330000 ?     S    10:01   0:01 python -c x",
        ];
        let f = read(&aux, |p, f, n, l| {
            p.snapshot_line(f, n, l, "2024-03-14T10:05")
        });
        let top = &f.top_memory[0];
        assert_eq!(f.top_memory.len(), 1);
        assert_eq!(top.name, "python amlbi_main.py");
        assert_eq!(
            (top.pid, top.percent, top.line),
            (Some(4242), Some(91.2), 3)
        );
        assert!(
            top.describe()
                .starts_with("python amlbi_main.py (pid 4242): 14,551 MB")
        );
        let custom = [
            "  PID %MEM CMD",
            " 12  3.5 python a.py",
            " 13 60.0 python b.py",
        ];
        let f = read(&custom, |p, f, n, l| p.snapshot_line(f, n, l, "t"));
        assert_eq!(f.top_memory[0].name, "python b.py");
    }

    #[test]
    fn tasklist_snapshots() {
        let t = [
            "",
            "Image Name                     PID Session Name        Session#    Mem Usage",
            "========================= ======== ================ =========== ============",
            "System Idle Process              0 Services                   0          8 K",
            "python.exe                    4242 Services                   0  9,437,184 K",
        ];
        let f = read(&t, |p, f, n, l| p.snapshot_line(f, n, l, "t"));
        let top = &f.top_memory[0];
        assert_eq!(
            (top.name.as_str(), top.pid, top.mb),
            ("python.exe", Some(4242), Some(9216.0))
        );
    }

    #[test]
    fn lines_before_the_header_and_garbage_are_skipped() {
        let f = read(
            &[
                "# resource monitor",
                "Utc Time,Pid,Process Name,Memory Used (MB)",
                "x,y,z,not a number",
            ],
            PerfParser::process_line,
        );
        assert!(f.top_memory.is_empty());
        let f = read(&["", "garbage line"], |p, f, n, l| {
            p.snapshot_line(f, n, l, "t")
        });
        assert!(f.top_memory.is_empty());
    }

    #[test]
    fn snapshot_times_from_their_path() {
        assert_eq!(
            snapshot_time("2024031410", "processes_05").unwrap(),
            "2024-03-14T10:05"
        );
        assert_eq!(snapshot_time("20240314", "processes_05"), None);
    }
}
