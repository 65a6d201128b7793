//! Shards on real schedulers: the files in `tournaments/cluster/` run as
//! they are (GNU parallel, a Slurm job array on a one-node cluster this
//! test starts, a Kubernetes Indexed Job checked against the Job schema),
//! and their shards merge into the standings of one process, byte for
//! byte. The tools are installed by `.ci/run`; a test whose tool is
//! missing fails and says how to install it.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use wait_timeout::ChildExt;

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(120);

/// A file of `tournaments/cluster/`.
fn cluster_file(name: &str) -> PathBuf {
    root().join("tournaments/cluster").join(name)
}

/// Fails the test, saying how to install it, unless `program` is on PATH.
fn require(program: &str, package: &str) {
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        found,
        "{program} is not installed: `apt-get install {package}` (.ci/run installs it)"
    );
}

/// A small Arrow 5 round robin (3 bots, 12 games) in `dir`, its key file,
/// and the standings of one process playing all of it: `(file, key,
/// folder)`. `extra` goes at the top level of the file (`sandbox = ...`).
fn tournament_with_whole_run(dir: &Path, extra: &str) -> (PathBuf, PathBuf, PathBuf) {
    let file = dir.join("cluster.toml");
    fs::write(
        &file,
        format!(
            "name = \"cluster\"\ngame = \"arrow5\"\ngames_per_pairing = 4\nseed = 31\n{extra}\n\
             [options]\ncodes = \"random\"\nmax_rounds = 30\n\
             [[bots]]\nname = \"strong\"\nbot = \"{}\"\n\
             [[bots]]\nname = \"random\"\nbot = \"{}\"\n\
             [[bots]]\nname = \"py-starter\"\nbot = \"{}\"\nlanguage = \"python\"\n",
            sample_bin("arrow5_strong"),
            sample_bin("arrow5_random"),
            sample_file("python/arrow5_starter.py"),
        ),
    )
    .unwrap();
    let key = dir.join("shard.key");
    fs::write(&key, "c3".repeat(32)).unwrap();
    let whole = dir.join("whole");
    let run = referee(
        &[
            "tournament",
            file.to_str().unwrap(),
            "--key-file",
            key.to_str().unwrap(),
            "--out",
            whole.to_str().unwrap(),
            "--no-report",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "the whole tournament: {}", run.stderr);
    (file, key, whole)
}

/// Merges `shards` (folders) into `merged` and checks that its standings
/// and crosstable are those of `whole`, byte for byte, all 12 games in.
fn assert_merge_matches(shards: &[PathBuf], merged: &Path, whole: &Path) {
    let mut args = vec!["merge".to_string()];
    args.extend(shards.iter().map(|s| s.display().to_string()));
    args.extend(["--out".into(), merged.display().to_string()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = referee(&args, BUDGET);
    assert_eq!(run.status, 0, "merge: {}", run.stderr);
    assert_merged(merged, whole);
}

/// `merged` holds the 12 games and the standings and crosstable of
/// `whole`, byte for byte.
fn assert_merged(merged: &Path, whole: &Path) {
    assert_eq!(
        csv_records(&merged.join("games.csv")).len(),
        12,
        "every game merged"
    );
    for file in ["standings.csv", "crosstable.csv"] {
        assert_eq!(
            fs::read_to_string(merged.join(file)).unwrap(),
            fs::read_to_string(whole.join(file)).unwrap(),
            "{file}: the merged shards against one process"
        );
    }
}

#[test]
#[ignore = "needs GNU parallel: run by .ci/run"]
fn gnu_parallel_shards_merge_into_the_standings_of_one_process() {
    require("parallel", "parallel");
    let dir = tempfile::tempdir().unwrap();
    let (file, key, whole) = tournament_with_whole_run(dir.path(), "");
    // This machine is the one host (`:` in GNU parallel's login file).
    let hosts = dir.path().join("hosts.txt");
    fs::write(&hosts, ":\n").unwrap();
    let mut script = Command::new(cluster_file("shards-parallel.sh"));
    script
        .current_dir(dir.path())
        .env("REFEREE", referee_bin())
        .env("TOURNAMENT", &file)
        .env("KEY_FILE", &key)
        .env("HOSTS", &hosts)
        .env("SHARDS", "3");
    let run = run_within(script, BUDGET);
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    // RESULTS by default: `results` in the folder the script ran in.
    let results = dir.path().join("results");
    // Shards take games by identity (a hash), not by number: together
    // they play each of the 12 games once.
    let mut numbers: Vec<String> = (1..=3)
        .flat_map(|shard| csv_records(&results.join(format!("shard-{shard}/games.csv"))))
        .map(|row| row["game"].clone())
        .collect();
    numbers.sort_by_key(|n| n.parse::<u32>().unwrap());
    let every: Vec<String> = (1..=12).map(|n| n.to_string()).collect();
    assert_eq!(numbers, every, "each game in exactly one shard");
    assert!(
        run.stdout.contains("12 of 12 games merged"),
        "{}",
        run.stdout
    );
    assert_merged(&results.join("merged"), &whole);
}

/// The `#SBATCH --array=1-N` of the job array script: N.
fn array_size(script: &str) -> usize {
    script
        .lines()
        .find_map(|l| l.strip_prefix("#SBATCH --array=1-"))
        .expect("the script asks for an array 1-N")
        .trim()
        .parse()
        .expect("N is a number")
}

#[test]
#[ignore = "needs root and slurm: run by .ci/run"]
fn slurm_job_array_shards_merge_into_the_standings_of_one_process() {
    for program in ["munged", "slurmctld", "slurmd", "sbatch"] {
        require(program, "slurm-wlm munge");
    }
    let dir = tempfile::tempdir().unwrap();
    // Under slurmd as in any other process: the strict sandbox (a user and
    // a cgroup per bot) needs only that the job runs as root.
    let (file, key, whole) = tournament_with_whole_run(dir.path(), "sandbox = \"strict\"");
    let mut cluster = SlurmCluster::start();
    let script = cluster_file("shards.sbatch");
    let shards = array_size(&fs::read_to_string(&script).unwrap());
    // Submitted from a folder of its own (SLURM_SUBMIT_DIR), where the
    // script's relative paths lead: RESULTS is left to its default.
    let submit_dir = dir.path().join("submit");
    fs::create_dir(&submit_dir).unwrap();
    let mut sbatch = cluster.command("sbatch");
    sbatch
        .arg("--parsable")
        .arg(&script)
        .current_dir(&submit_dir)
        .env("REFEREE", referee_bin())
        .env("TOURNAMENT", &file)
        .env("KEY_FILE", &key);
    let run = run_within(sbatch, BUDGET);
    assert_eq!(run.status, 0, "sbatch: {}", run.stderr);
    let job = run.stdout.trim().split(';').next().unwrap().to_string();
    cluster.wait_for_job(&job);
    // Every task of the array ran to the end with exit code 0.
    let shown = cluster.output(&["scontrol", "show", "job", &job]);
    let states: Vec<&str> = shown
        .split_whitespace()
        .filter(|w| w.starts_with("JobState=") || w.starts_with("ExitCode="))
        .collect();
    assert_eq!(
        states,
        ["JobState=COMPLETED", "ExitCode=0:0"].repeat(shards),
        "{shown}\n{}",
        cluster.logs()
    );
    let folders: Vec<PathBuf> = (1..=shards)
        .map(|i| submit_dir.join(format!("results/shard-{i}")))
        .collect();
    for i in 1..=shards {
        let output = fs::read_to_string(submit_dir.join(format!("slurm-{job}_{i}.out")))
            .unwrap_or_else(|e| panic!("task {i}'s output: {e}"));
        assert!(
            output.contains("sandbox: strict"),
            "task {i} ran its bots in the strict sandbox:\n{output}"
        );
    }
    assert_merge_matches(&folders, &dir.path().join("merged"), &whole);
    let left = cluster.stop();
    assert!(left.is_empty(), "processes left by the cluster: {left:?}");
}

/// A one-node Slurm cluster on this machine (munged, slurmctld, slurmd as
/// root), its state in a temporary folder, on ports of its own, so it
/// neither needs nor touches a cluster of the machine. Dropping it
/// cancels its jobs and ends every process it started, by pid: the
/// daemons, and the job steps (slurmstepd and below) that carry its
/// SLURM_CONF.
struct SlurmCluster {
    daemons: Vec<(&'static str, Child)>,
    conf: PathBuf,
    partition: &'static str,
    dir: tempfile::TempDir,
}

impl SlurmCluster {
    fn start() -> SlurmCluster {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().to_path_buf();
        // munged wants every folder above its socket open to all.
        set_mode(&path, 0o755);
        let key = path.join("munge.key");
        let mut random = vec![0; 1024];
        fs::File::open("/dev/urandom")
            .unwrap()
            .read_exact(&mut random)
            .unwrap();
        fs::write(&key, random).unwrap();
        set_mode(&key, 0o600);
        for folder in ["state", "spool"] {
            fs::create_dir(path.join(folder)).unwrap();
        }
        let host = short_hostname();
        let (controller_port, node_port) = two_free_ports();
        let partition = "referee";
        let conf = path.join("slurm.conf");
        let p = path.display();
        fs::write(
            &conf,
            format!(
                "ClusterName=refereetest\n\
                 SlurmctldHost={host}(127.0.0.1)\n\
                 SlurmctldPort={controller_port}\n\
                 SlurmdPort={node_port}\n\
                 SlurmUser=root\n\
                 SlurmdUser=root\n\
                 AuthType=auth/munge\n\
                 AuthInfo=socket={p}/munge.socket\n\
                 CredType=cred/munge\n\
                 StateSaveLocation={p}/state\n\
                 SlurmdSpoolDir={p}/spool\n\
                 SlurmctldPidFile={p}/slurmctld.pid\n\
                 SlurmdPidFile={p}/slurmd.pid\n\
                 SlurmctldLogFile={p}/slurmctld.log\n\
                 SlurmdLogFile={p}/slurmd.log\n\
                 MailProg=/bin/true\n\
                 ProctrackType=proctrack/linuxproc\n\
                 TaskPlugin=task/none\n\
                 JobAcctGatherType=jobacct_gather/none\n\
                 AccountingStorageType=accounting_storage/none\n\
                 SwitchType=switch/none\n\
                 MpiDefault=none\n\
                 SelectType=select/cons_tres\n\
                 SelectTypeParameters=CR_CPU\n\
                 SchedulerType=sched/builtin\n\
                 SchedulerParameters=sched_interval=1\n\
                 ReturnToService=2\n\
                 NodeName={host} NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN\n\
                 PartitionName={partition} Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n"
            ),
        )
        .unwrap();
        let mut cluster = SlurmCluster {
            daemons: vec![],
            conf,
            partition,
            dir,
        };
        let socket = format!("--socket={p}/munge.socket");
        cluster.daemon(
            "munged",
            &[
                "-F",
                &format!("--key-file={p}/munge.key"),
                &socket,
                &format!("--pid-file={p}/munged.pid"),
                &format!("--seed-file={p}/munged.seed"),
                &format!("--log-file={p}/munged.log"),
            ],
        );
        cluster.wait_until("munged's socket", || path.join("munge.socket").exists());
        let conf = cluster.conf.display().to_string();
        cluster.daemon("slurmctld", &["-D", "-f", &conf]);
        cluster.daemon("slurmd", &["-D", "-f", &conf, "-N", &host]);
        cluster.wait_until("the node to be idle", || {
            cluster.try_output(&["sinfo", "-h", "-o", "%T"]).trim() == "idle"
        });
        cluster
    }

    /// Starts a daemon in the foreground (its pid is the child's), its
    /// output in `<name>.out`.
    fn daemon(&mut self, name: &'static str, args: &[&str]) {
        let out = fs::File::create(self.dir.path().join(format!("{name}.out"))).unwrap();
        let child = Command::new(name)
            .args(args)
            .current_dir(self.dir.path())
            .env("SLURM_CONF", &self.conf)
            .stdin(Stdio::null())
            .stdout(out.try_clone().unwrap())
            .stderr(out)
            .spawn()
            .unwrap_or_else(|e| panic!("start {name}: {e}"));
        self.daemons.push((name, child));
    }

    /// A command of this cluster's (sbatch, squeue, ...).
    fn command(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        command.env("SLURM_CONF", &self.conf);
        command
    }

    /// The standard output of a client command, whatever its status.
    fn try_output(&self, args: &[&str]) -> String {
        let mut command = self.command(args[0]);
        command.args(&args[1..]);
        let run = run_within(command, Duration::from_secs(30));
        run.stdout
    }

    /// The standard output of a client command that must succeed.
    fn output(&self, args: &[&str]) -> String {
        let mut command = self.command(args[0]);
        command.args(&args[1..]);
        let run = run_within(command, Duration::from_secs(30));
        assert_eq!(run.status, 0, "{args:?}: {}\n{}", run.stderr, self.logs());
        run.stdout
    }

    fn wait_until(&self, what: &str, mut done: impl FnMut() -> bool) {
        let start = Instant::now();
        while !done() {
            assert!(
                start.elapsed() < BUDGET,
                "waited {BUDGET:?} for {what}\n{}",
                self.logs()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Waits until no task of `job` is pending or running.
    fn wait_for_job(&self, job: &str) {
        self.wait_until(&format!("job {job}"), || {
            self.try_output(&["squeue", "-h", "-j", job])
                .trim()
                .is_empty()
        });
    }

    /// The daemons' output, for a failure's message.
    fn logs(&self) -> String {
        ["munged", "slurmctld", "slurmd"]
            .iter()
            .map(|name| {
                let text = fs::read_to_string(self.dir.path().join(format!("{name}.out")))
                    .unwrap_or_default();
                let tail: Vec<&str> = text.lines().rev().take(20).collect();
                let tail: Vec<&str> = tail.into_iter().rev().collect();
                format!("--- {name}:\n{}", tail.join("\n"))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Cancels the jobs, ends the daemons (SIGTERM, then SIGKILL after 10
    /// s), then kills whatever still carries this cluster's SLURM_CONF
    /// (job steps, their processes). Returns the pids it had to kill so.
    fn stop(&mut self) -> Vec<i32> {
        if !self.daemons.is_empty() {
            let mut scancel = self.command("scancel");
            scancel.args(["--partition", self.partition]);
            let _ = scancel.stdout(Stdio::null()).stderr(Stdio::null()).status();
        }
        while let Some((_, mut child)) = self.daemons.pop() {
            // The pid of a child not yet waited for: still its own.
            signal(child.id(), rustix::process::Signal::TERM);
            if !matches!(child.wait_timeout(Duration::from_secs(10)), Ok(Some(_))) {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
        let marker = format!("SLURM_CONF={}", self.conf.display());
        let left = pids_whose_environment_holds(&marker);
        for &pid in &left {
            signal(pid as u32, rustix::process::Signal::KILL);
        }
        left
    }
}

impl Drop for SlurmCluster {
    fn drop(&mut self) {
        self.stop();
    }
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

/// This machine's name up to its first dot, as slurmctld and slurmd see it.
fn short_hostname() -> String {
    let name = fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    name.trim().split('.').next().unwrap().to_string()
}

/// Two distinct TCP ports free now (the kernel's picks, both held until
/// both are known: a port released and picked again would give the
/// controller and the node one port).
fn two_free_ports() -> (u16, u16) {
    let first = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let second = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    (
        first.local_addr().unwrap().port(),
        second.local_addr().unwrap().port(),
    )
}

/// The pids of the processes (this one aside) whose environment holds the
/// entry `entry` (`NAME=value`).
fn pids_whose_environment_holds(entry: &str) -> Vec<i32> {
    let me = std::process::id() as i32;
    fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| pid != me)
        .filter(|pid| {
            fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.split(|&b| b == 0).any(|e| e == entry.as_bytes()))
        })
        .collect()
}

#[test]
#[ignore = "needs python's kubernetes-validate: run by .ci/run"]
fn the_kubernetes_indexed_job_is_a_valid_job() {
    let manifest = cluster_file("shards-job.yaml");
    let validate = |file: &Path| {
        let mut python = Command::new("python3");
        python.args([
            "-c",
            "import sys, kubernetes_validate as k\n\
             sys.exit(max(k.validate_file(sys.argv[1], v, strict=True, quiet=False, no_warn=False)\n\
                          for v in ['1.29.0', k.latest_version()]))",
            file.to_str().unwrap(),
        ]);
        run_within(python, BUDGET)
    };
    let run = validate(&manifest);
    assert!(
        !run.stderr.contains("No module named"),
        "python's kubernetes-validate is not installed: \
         `python3 -m pip install kubernetes-validate` (.ci/run installs it)\n{}",
        run.stderr
    );
    assert_eq!(run.status, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("passed"), "{}", run.stdout);
    // The check can fail: a misspelt field is refused.
    let dir = tempfile::tempdir().unwrap();
    let text = fs::read_to_string(&manifest).unwrap();
    let misspelt = dir.path().join("misspelt.yaml");
    fs::write(&misspelt, text.replace("completionMode:", "completionMod:")).unwrap();
    let run = validate(&misspelt);
    assert_ne!(run.status, 0, "{}", run.stdout);
    assert!(run.stdout.contains("completionMod"), "{}", run.stdout);
    // The shard count the pods are told is the number of completions.
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.trim().strip_prefix(name))
            .unwrap_or_else(|| panic!("{name} in the manifest"))
            .split_whitespace()
            .next()
            .unwrap()
            .trim_matches('"')
            .to_string()
    };
    assert_eq!(field("completions:"), field("value:"));
    assert!(text.contains("--shard $((JOB_COMPLETION_INDEX + 1))/$SHARDS"));
}

#[test]
fn the_docs_show_the_cluster_files_as_they_are() {
    let docs = fs::read_to_string(root().join("docs/running-a-contest.md")).unwrap();
    for name in ["shards-parallel.sh", "shards.sbatch", "shards-job.yaml"] {
        let text = fs::read_to_string(cluster_file(name)).unwrap();
        assert!(
            docs.contains(&format!("\n{text}```\n")),
            "docs/running-a-contest.md shows tournaments/cluster/{name} as it is"
        );
    }
}
