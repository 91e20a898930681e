"""amldoctor rehearse parallel: run an entry script the way the ParallelRunStep driver does.

The master cuts the inputs into mini-batches, starts `processes` worker processes (spawned,
as the driver's are: nothing inherited from this one), and hands each worker one mini-batch
at a time. A worker imports the entry script, calls init() once, then run(mini_batch) per
mini-batch. A mini-batch past the timeout has its worker killed and replaced, and is retried
up to max_tries times. Everything is written as a real job writes its logs/ tree, so
amldoctor's ParallelRunStep analysis reads it as it reads a failed cloud run; a summary of
what was measured goes to rehearsal.json beside it.

Usage: python parallel_harness.py CONFIG.json   (written by amldoctor)
"""
import datetime
import importlib.util
import json
import multiprocessing
import os
import queue
import sys
import time
import traceback

NODE = "0"
IP = "127.0.0.1"


def now():
    return datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)


def stamp(t=None):
    t = t or now()
    return t.strftime("%Y-%m-%d %H:%M:%S,") + "%03d" % (t.microsecond // 1000)


def append(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "a", encoding="utf-8") as f:
        f.write(text)


def log(path, level, message, pid=None):
    append(path, "%s|%s|%d|%s\n" % (stamp(), level, pid or os.getpid(), message))


class Tree:
    """The paths of the job's log tree, as the driver lays it out."""

    def __init__(self, out):
        self.out = out
        self.logs = os.path.join(out, "logs")

    def sys_process(self, name):
        return os.path.join(self.logs, "sys", "node", NODE, name + ".txt")

    def main(self):
        return os.path.join(self.logs, "sys", "node", NODE, "_main.txt")

    def master(self):
        return os.path.join(self.logs, "sys", "master_role.txt")

    def user_error(self, name):
        return os.path.join(self.logs, "user", "error", NODE, name + ".txt")

    def stdout(self, name):
        return os.path.join(self.logs, "user", "stdout", NODE, name + ".stdout.txt")

    def stderr(self, name):
        return os.path.join(self.logs, "user", "stderr", NODE, name + ".stderr.txt")

    def entry_log(self, name):
        return os.path.join(self.logs, "user", "entry_script_log", NODE, name + ".log.txt")

    def overview(self):
        return os.path.join(self.logs, "job_progress_overview.%s.txt" % now().strftime("%Y%m%d%H"))

    def overview_line(self, message):
        append(self.overview(), "%s %s\n" % (now().isoformat(), message))


# ---------------------------------------------------------------- the worker side


def install_entry_script_stub(tree, name, output_dir):
    """azureml_user.parallel_run.EntryScript, as far as entry scripts use it."""
    import logging
    import types

    logger = logging.getLogger("azureml_user.parallel_run.entry_script")
    logger.setLevel(logging.DEBUG)
    os.makedirs(os.path.dirname(tree.entry_log(name)), exist_ok=True)
    handler = logging.FileHandler(tree.entry_log(name), encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s|%(levelname)s|%(process)d|%(message)s"))
    logger.addHandler(handler)

    class EntryScript:
        def __init__(self):
            self.logger = logger
            self.agent_name = name
            self.process_name = name
            self.node_id = NODE
            self.working_dir = os.getcwd()
            self.output_dir = output_dir
            self.log_dir = os.path.join(tree.logs, "user")

        def get_logger(self):
            return self.logger

    package = types.ModuleType("azureml_user")
    module = types.ModuleType("azureml_user.parallel_run")
    module.EntryScript = EntryScript
    package.parallel_run = module
    sys.modules.setdefault("azureml_user", package)
    sys.modules.setdefault("azureml_user.parallel_run", module)


def redirect_output(tree, name):
    for fd, path in ((1, tree.stdout(name)), (2, tree.stderr(name))):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        f = open(path, "a", encoding="utf-8")
        os.dup2(f.fileno(), fd)
    sys.stdout = open(1, "w", buffering=1, encoding="utf-8", closefd=False)
    sys.stderr = open(2, "w", buffering=1, encoding="utf-8", closefd=False)


def peak_rss_kb():
    try:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    except Exception:  # not on every platform
        return 0


def load_script(config):
    script = config["entry_script"]
    folder = os.path.dirname(script)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    sys.argv = [script] + list(config["args"])
    module_name = os.path.splitext(os.path.basename(script))[0]
    spec = importlib.util.spec_from_file_location(module_name, script)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module, module_name


def first_line(exc):
    return ("%s: %s" % (type(exc).__name__, exc)).splitlines()[0] if str(exc) else type(exc).__name__


def worker_init(config, tree, name, events):
    """Imports the script and calls init(); the module, or None when either failed."""
    sys_log = tree.sys_process(name)
    log(sys_log, "INFO", "Started %s on node %s (%s), pid %d." % (name, NODE, IP, os.getpid()))
    log(sys_log, "INFO", "Calling init() in the entry script.")
    start = time.monotonic()
    try:
        module, module_name = load_script(config)
        init = getattr(module, "init", None)
        if init is not None:
            init()
    except BaseException as exc:  # the user's code: anything, even SystemExit
        seconds = time.monotonic() - start
        message = first_line(exc)
        log(tree.user_error(name), "ERROR",
            "Entry script init() failed for %s. Details %s" % (message, traceback.format_exc().rstrip()))
        log(sys_log, "ERROR", "Entry script init() failed for %s. See logs/user/error/%s/%s.txt for details."
            % (message, NODE, name))
        events.put({"event": "init", "process": name, "pid": os.getpid(), "ok": False,
                    "seconds": seconds, "error": message, "traceback": traceback.format_exc(),
                    "peak_rss_kb": peak_rss_kb()})
        return None
    seconds = time.monotonic() - start
    log(sys_log, "INFO", "init() in the entry script finished in %.2f seconds." % seconds)
    events.put({"event": "init", "process": name, "pid": os.getpid(), "ok": True,
                "seconds": seconds, "peak_rss_kb": peak_rss_kb(), "module": module_name})
    return module


def build_input(config, batch):
    if config["input_type"] != "tabular":
        return list(batch["items"])
    import pandas

    frames = [read_table(path).iloc[start:end] for path, start, end in batch["items"]]
    return pandas.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]


def read_table(path):
    import pandas

    lower = path.lower()
    if lower.endswith(".parquet"):
        return pandas.read_parquet(path)
    if lower.endswith((".jsonl", ".json")):
        return pandas.read_json(path, lines=True)
    if lower.endswith(".tsv"):
        return pandas.read_csv(path, sep="\t")
    return pandas.read_csv(path)


def result_count(result):
    """How many results run() returned, and the type name when it is not a list, array or frame."""
    kind = type(result).__name__
    if result is None:
        return None, "NoneType"
    pandas = sys.modules.get("pandas")  # a frame needs pandas imported already
    if pandas is not None and isinstance(result, pandas.DataFrame):
        return len(result.index), kind
    if isinstance(result, (list, tuple)) or kind == "ndarray":
        return len(result), kind
    return None, kind


def write_rows(config, result, name):
    if config["output_action"] != "append_row" or result is None:
        return
    path = os.path.join(config["out"], "outputs", "%s.%s" % (name, config["append_row_file_name"]))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "a", encoding="utf-8") as f:
        pandas = sys.modules.get("pandas")
        if pandas is not None and isinstance(result, pandas.DataFrame):
            result.to_csv(f, header=False, index=False, sep=" ")
            return
        for row in result:
            f.write("%s\n" % (row,))


def process_batch(config, tree, name, module, batch, tries):
    sys_log = tree.sys_process(name)
    total = batch["count"]
    picked = {"id": batch["id"], "dequeue_count": tries, "minibatch": [batch["id"]],
              "location": "rehearsal", "partition_size": total, "task_type": 10}
    log(sys_log, "INFO", "Picked " + json.dumps(picked))
    started = now()
    wall = time.monotonic()
    cpu = time.process_time()
    record = {"agent": name, "task_id": batch["id"], "dequeue_count": tries, "total": total,
              "succeeded": 0, "method": "run", "exc_type": "", "message": "", "node_id": NODE,
              "ip": IP, "pid": os.getpid(), "start_time": started.isoformat()}
    event = {"event": "done", "process": name, "id": batch["id"], "try": tries, "total": total,
             "start_time": started.isoformat()}
    try:
        run = getattr(module, "run")
        data = build_input(config, batch)
        run_start = time.monotonic()
        result = run(data)
        run_seconds = time.monotonic() - run_start
        count, kind = result_count(result)
        write_rows(config, result, name)
        summary_only = config["output_action"] == "summary_only"
        if count is None and not summary_only:
            raise TypeError("The run() method in the entry script should return a list or a pandas "
                            "DataFrame. The actual type of output is %s." % kind)
        succeeded = total if summary_only else min(count, total)
        record["succeeded"] = succeeded
        event.update(ok=True, results=count, result_type=kind, succeeded=succeeded)
    except BaseException as exc:  # the user's code
        run_seconds = time.monotonic() - wall
        message = first_line(exc)
        record.update(exc_type=type(exc).__name__, message=str(exc).splitlines()[0] if str(exc) else "")
        log(tree.user_error(name), "ERROR",
            "Entry script run() failed for %s. Details %s" % (message, traceback.format_exc().rstrip()))
        event.update(ok=False, error=message, exc_type=type(exc).__name__, succeeded=0,
                     traceback=traceback.format_exc())
    record.update(elapsed_seconds=round(time.monotonic() - wall, 2),
                  process_seconds=round(time.process_time() - cpu, 2),
                  run_method_seconds=round(run_seconds, 2))
    if event["ok"]:
        log(sys_log, "INFO", "Processed " + json.dumps(record))
    else:
        log(sys_log, "ERROR", "Failed to process %s. See logs/user/error/%s/%s.txt for details."
            % (json.dumps(record), NODE, name))
    event.update(elapsed=record["elapsed_seconds"], process_seconds=record["process_seconds"],
                 run_seconds=record["run_method_seconds"], peak_rss_kb=peak_rss_kb())
    return event


def worker_main(config, name, tasks, events):
    tree = Tree(config["out"])
    os.chdir(config["working_dir"])
    redirect_output(tree, name)
    install_entry_script_stub(tree, name, os.path.join(config["out"], "outputs"))
    module = worker_init(config, tree, name, events)
    if module is None:
        return
    while True:
        task = tasks.get()
        if task is None:
            break
        batch, tries = task
        events.put(process_batch(config, tree, name, module, batch, tries))
        sys.stdout.flush()
        sys.stderr.flush()


# ---------------------------------------------------------------- the master side


def list_files(inputs):
    files = []
    for path in inputs:
        if os.path.isdir(path):
            for root, dirs, names in os.walk(path):
                dirs.sort()
                files.extend(os.path.join(root, n) for n in sorted(names))
        else:
            files.append(path)
    return files


def table_rows(path):
    return len(read_table(path).index)


def cut(config, files):
    """Mini-batches: a count of files (or of rows), or about SIZE bytes of each table."""
    size = config["mini_batch_size"]
    batches = []
    if config["input_type"] != "tabular":
        step = max(1, int(size.get("count") or 10))
        for i in range(0, len(files), step):
            chunk = files[i:i + step]
            batches.append({"items": chunk, "count": len(chunk),
                            "detail": ";".join(os.path.basename(p) for p in chunk)})
    else:
        for path in files:
            rows = table_rows(path)
            if size.get("count"):
                step = max(1, int(size["count"]))
            else:
                per_row = max(1.0, os.path.getsize(path) / max(1, rows))
                step = max(1, int(int(size.get("bytes") or 1048576) / per_row))
            for start in range(0, max(rows, 1), step):
                end = min(rows, start + step)
                batches.append({"items": [(path, start, end)], "count": end - start,
                                "detail": "%s[%d:%d]" % (os.path.basename(path), start, end)})
    for i, b in enumerate(batches):
        b["id"] = i
    return batches


class Master:
    def __init__(self, config):
        self.config = config
        self.tree = Tree(config["out"])
        self.ctx = multiprocessing.get_context("spawn")
        self.events = self.ctx.Queue()
        self.workers = {}  # name -> dict(process, tasks, busy, since)
        self.started = 0
        self.inits = []
        self.attempts = []
        self.final = {}
        self.failed_items = 0

    def start_worker(self):
        name = "process%03d" % self.started
        self.started += 1
        tasks = self.ctx.Queue()
        p = self.ctx.Process(target=worker_main, args=(self.config, name, tasks, self.events), name=name)
        p.start()
        log(self.tree.main(), "INFO", "Started %s, pid %d." % (name, p.pid))
        self.workers[name] = {"process": p, "tasks": tasks, "busy": None, "since": None, "ready": False}

    def stop_worker(self, name, reason):
        p = self.workers.pop(name)["process"]
        if p.is_alive():
            p.kill()
        p.join(5)
        if reason == "timeout":
            # Not "returncode -9": the driver's words for a kill it did not order (OOM).
            log(self.tree.main(), "INFO", "Stopped %s (pid %d): run() ran past the run_invocation_timeout."
                % (name, p.pid))
        else:
            log(self.tree.main(), "INFO", "%s exits with returncode %s." % (name, p.exitcode))

    def csv_row(self, e, batch, status, category, message):
        fields = [e["id"], e["try"], "%s/%s" % (NODE, e["process"]), e["start_time"], batch["count"],
                  e.get("succeeded", 0), batch["count"] - e.get("succeeded", 0),
                  "%.2f" % e.get("elapsed", 0), "%.2f" % e.get("process_seconds", 0),
                  "%.2f" % e.get("run_seconds", 0), status, category, message, batch["detail"]]
        text = ",".join(csv_field(f) for f in fields)
        append(os.path.join(self.tree.logs, "sys", "job_report", "processed_mini-batches.csv"), text + "\n")


def csv_field(value):
    text = str(value)
    if any(c in text for c in ',"\n'):
        return '"%s"' % text.replace('"', '""').replace("\n", " ")
    return text


def write_header(master, batches):
    c = master.config
    t = master.tree
    args = ["--client_sdk_version", "rehearsal", "--scoring_module_name", os.path.basename(c["entry_script"]),
            "--mini_batch_size", str(c["mini_batch_size"].get("count") or c["mini_batch_size"].get("bytes")),
            "--error_threshold", str(c["error_threshold"]), "--output_action", c["output_action"],
            "--append_row_file_name", c["append_row_file_name"], "--run_invocation_timeout", str(c["timeout"]),
            "--run_max_try", str(c["max_tries"]), "--process_count_per_node", str(c["processes"]),
            "--node_count", "1"] + list(c["args"])
    driver = os.path.join(c["out"], "azureml-logs", "70_driver_log.txt")
    append(driver, "[%s] Preparing to call script [driver/amlbi_main.py] with arguments:%s\n"
           % (now().isoformat(), json.dumps(args).replace('"', "'")))
    append(os.path.join(t.logs, "sys", "job_report", "processed_mini-batches.csv"),
           "Mini-batch Id,Picked Count,Process,Start Time,Total,Succeeded,Failed,Elapsed Seconds,"
           "Process Seconds,Run Method Seconds,Status,Error Category,Error Message,Mini-batch Detail\n")
    log(t.master(), "INFO", "Start the master role on node %s (%s)." % (NODE, IP))
    t.overview_line("The overviewer on 0 started.")
    t.overview_line("Start scheduling.")
    items = sum(b["count"] for b in batches)
    t.overview_line("Scheduling finished. Scheduled %d mini batches in 0 seconds. There are %d tasks with %d items."
                    % (len(batches), len(batches), items))
    log(t.main(), "INFO", "Node %s (%s) started. Starting %d worker processes (process_count_per_node=%d)."
        % (NODE, IP, c["processes"], c["processes"]))


def on_done(master, e, batch, pending):
    c = master.config
    master.attempts.append(e)
    if e["ok"]:
        status, category, message = "RUN_DONE", "", ""
        master.final[e["id"]] = e
        master.failed_items += batch["count"] - e["succeeded"]
    else:
        status, category, message = "RUN_EXCEPTION", "User", e.get("error", "")
        if e["try"] < c["max_tries"]:
            pending.append((batch, e["try"] + 1))
        else:
            master.final[e["id"]] = e
            master.failed_items += batch["count"]
    master.csv_row(e, batch, status, category, message)


def on_timeout(master, name, w, batch_tries, pending):
    c = master.config
    batch, tries = batch_tries
    elapsed = time.monotonic() - w["since"]
    record = {"agent": name, "task_id": batch["id"], "dequeue_count": tries, "total": batch["count"],
              "succeeded": 0, "method": "run", "exc_type": "", "message": "", "node_id": NODE, "ip": IP,
              "pid": w["process"].pid, "start_time": w["started"], "elapsed_seconds": round(elapsed, 2),
              "process_seconds": 0.0, "run_method_seconds": float(c["timeout"])}
    log(master.tree.sys_process(name), "ERROR", "Stop for run() unable to finish within %d seconds for %s"
        % (c["timeout"], json.dumps(record)), pid=w["process"].pid)
    e = {"event": "done", "process": name, "id": batch["id"], "try": tries, "total": batch["count"],
         "start_time": w["started"], "ok": False, "timeout": True, "succeeded": 0, "elapsed": elapsed,
         "run_seconds": float(c["timeout"]), "error": "run() did not return within %d seconds" % c["timeout"]}
    master.attempts.append(e)
    last = tries >= c["max_tries"]
    why = "run_max_try (%d) reached" % c["max_tries"] if last else "mini batch will be retried"
    master.csv_row(e, batch, "RUN_TIMEOUT", "User", "run() did not return within run_invocation_timeout "
                   "(%d seconds), %s" % (c["timeout"], why))
    if last:
        master.final[batch["id"]] = e
        master.failed_items += batch["count"]
    else:
        pending.append((batch, tries + 1))
    master.stop_worker(name, "timeout")
    master.start_worker()


def threshold_passed(master):
    t = master.config["error_threshold"]
    return t >= 0 and master.failed_items > t


def dispatch(master, pending):
    for name, w in master.workers.items():
        if w["ready"] and w["busy"] is None and pending:
            batch, tries = pending.pop(0)
            w["busy"] = (batch, tries)
            w["since"] = time.monotonic()
            w["started"] = now().isoformat()
            w["tasks"].put((batch, tries))


def handle_event(master, e, pending):
    name = e["process"]
    w = master.workers.get(name)
    if e["event"] == "init":
        master.inits.append(e)
        if w is not None:
            w["ready"] = e["ok"]
        return
    if w is not None and w["busy"] is not None:
        batch = w["busy"][0]
        w["busy"] = None
        on_done(master, e, batch, pending)


def run_master(master):
    c = master.config
    batches = cut(c, list_files(c["inputs"]))
    write_header(master, batches)
    pending = [(b, 1) for b in batches]
    for _ in range(c["processes"]):
        master.start_worker()
    stop_reason = None
    # Every worker's init() is waited for, as the driver does: a race shows in the slower one.
    while (len(master.final) < len(batches) or len(master.inits) < master.started) and stop_reason is None:
        dispatch(master, pending)
        try:
            handle_event(master, master.events.get(timeout=0.1), pending)
        except queue.Empty:
            pass
        for name, w in list(master.workers.items()):
            if w["busy"] is not None and time.monotonic() - w["since"] > c["timeout"]:
                on_timeout(master, name, w, w["busy"], pending)
        failed_inits = [i for i in master.inits if not i["ok"]]
        if failed_inits and len(failed_inits) >= master.started and not any(
                w["ready"] for w in master.workers.values()):
            stop_reason = "init"
        if threshold_passed(master):
            stop_reason = "threshold"
    finish(master, batches, stop_reason)


def finish(master, batches, stop_reason):
    c = master.config
    t = master.tree
    for w in master.workers.values():
        if w["process"].is_alive():
            w["tasks"].put(None)
    for name in list(master.workers):
        w = master.workers[name]
        w["process"].join(2 if stop_reason is None else 0.1)
        master.stop_worker(name, "end")
    items = sum(b["count"] for b in batches)
    done = [e for e in master.final.values()]
    succeeded = sum(e.get("succeeded", 0) for e in done)
    failed = master.failed_items
    if stop_reason == "init":
        result = "The init() in the entry script had raised exception for %d times. Please check workers log to find the cause." % len(master.inits)
        append(os.path.join(t.logs, "job_error.txt"), result + "\n")
    elif stop_reason == "threshold":
        result = ("The number of failed items is %d, which exceeds error threshold %d.\n"
                  "Please check logs for error. You can check logs/readme.txt for the layout of logs."
                  % (failed, c["error_threshold"]))
        t.overview_line("Progress update stopped for reasons: [Exceeded error threshold.].")
    else:
        result = ("The ParallelRunStep processed all mini batches. There are %d mini batches with %d items. "
                  "Processed %d mini batches containing %d items, %d succeeded, %d failed. The error threshold is %d. "
                  % (len(batches), items, len(done), items, succeeded, failed, c["error_threshold"]))
    exceptions = sum(1 for e in master.attempts if not e["ok"] and not e.get("timeout"))
    timeouts = sum(1 for e in master.attempts if e.get("timeout"))
    if exceptions:
        append(os.path.join(t.logs, "job_error.txt"), "The run() in the entry scipt had raised exception for %d times. Please check workers log to find the cause.\n" % exceptions)
    if timeouts:
        append(os.path.join(t.logs, "job_error.txt"), "The run() in the entry scipt had timeout for %d times. Please increase --run_invocation_timeout and try again.\n" % timeouts)
    level = "INFO" if stop_reason is None else "ERROR"
    log(t.master(), level, result.split("\n")[0])
    t.overview_line("The overviewer on 0 stopped.")
    t.overview_line(result)
    append(os.path.join(t.logs, "job_result.txt"), result + "\n")
    summary = {"batches": [{k: v for k, v in b.items() if k != "items"} for b in batches],
               "inits": master.inits, "attempts": master.attempts, "stopped": stop_reason,
               "items": items, "succeeded": succeeded, "failed": failed,
               "python": sys.version.split()[0]}
    with open(c["summary"], "w", encoding="utf-8") as f:
        json.dump(summary, f, default=str)


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        CONFIG = json.load(f)
    run_master(Master(CONFIG))
