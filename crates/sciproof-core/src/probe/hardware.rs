//! Hardware facts for `--record-hardware`: CPU count, processor, NVIDIA GPUs via `nvidia-smi`.
//! No host name, user name, serial number or GPU UUID.

use super::which;
use crate::manifest::{Gpu, Hardware, MAX_GPUS};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Parses `nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader,nounits`
/// output: at most 16 lines, split on commas; name = all but the last two parts.
pub fn parse_nvidia_smi(text: &str) -> Vec<Gpu> {
    let mut gpus = Vec::new();
    for line in text.lines().take(MAX_GPUS) {
        let parts: Vec<&str> = line.split(',').map(str::trim).collect();
        if parts.len() >= 3 && !parts[0].is_empty() {
            let n = parts.len();
            let memory = parts[n - 1];
            gpus.push(Gpu {
                name: parts[..n - 2].join(",").chars().take(100).collect(),
                driver: parts[n - 2].chars().take(40).collect(),
                memory_mib: (!memory.is_empty() && memory.bytes().all(|b| b.is_ascii_digit()))
                    .then(|| memory.parse().ok())
                    .flatten(),
            });
        }
    }
    gpus
}

fn processor() -> String {
    // Python's platform.processor() on Linux is `uname -p`, with "unknown" reported as "".
    let mut command = Command::new("uname");
    command.arg("-p").stdin(Stdio::null());
    let text = crate::runner::output_with_timeout(command, Duration::from_secs(5))
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    if text == "unknown" {
        String::new()
    } else {
        text.chars().take(200).collect()
    }
}

/// Probes this machine.
pub fn hardware_info() -> Hardware {
    // SAFETY: sysconf has no preconditions.
    let online = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) };
    let cpu_count = (online > 0).then_some(online as u64);
    let (gpu_probe, gpus) = match which("nvidia-smi") {
        None => ("none", Vec::new()),
        Some(exe) => {
            let mut command = Command::new(exe);
            command
                .args([
                    "--query-gpu=name,driver_version,memory.total",
                    "--format=csv,noheader,nounits",
                ])
                .stdin(Stdio::null());
            match crate::runner::output_with_timeout(command, Duration::from_secs(10)) {
                Some(o) if o.status.success() => (
                    "nvidia-smi",
                    parse_nvidia_smi(&String::from_utf8_lossy(&o.stdout)),
                ),
                _ => ("failed", Vec::new()),
            }
        }
    };
    Hardware {
        cpu_count,
        processor: processor(),
        gpu_probe: gpu_probe.into(),
        gpus,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nvidia_smi_lines() {
        let gpus = parse_nvidia_smi("NVIDIA A100, 80GB, 535.1, 81920\nbad\n, 1, 2\nT4, 470, N/A\n");
        assert_eq!(gpus.len(), 2);
        assert_eq!(gpus[0].name, "NVIDIA A100,80GB"); // parts are stripped, then re-joined
        assert_eq!(gpus[0].memory_mib, Some(81920));
        assert_eq!(gpus[1].memory_mib, None);
        assert_eq!(parse_nvidia_smi(&"G, 1, 2\n".repeat(20)).len(), 16);
    }
}
