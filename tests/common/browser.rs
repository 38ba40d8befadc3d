//! What a test in headless Chromium needs, or why it must skip: chromium, chromedriver and
//! Python's selenium (`apt-get install -y chromium chromium-driver`, `pip install selenium`).

use std::path::Path;
use std::process::Command;

/// Why a browser test cannot run here, or `None` when it can.
pub fn missing() -> Option<String> {
    for (var, tool) in [
        ("CHROMIUM", "/usr/bin/chromium"),
        ("CHROMEDRIVER", "/usr/bin/chromedriver"),
    ] {
        let path = std::env::var(var).unwrap_or_else(|_| tool.to_string());
        if !Path::new(&path).exists() {
            return Some(format!(
                "{path} is not installed (apt-get install -y chromium chromium-driver)"
            ));
        }
    }
    let selenium = Command::new("python3")
        .args(["-c", "import selenium"])
        .status()
        .is_ok_and(|s| s.success());
    (!selenium).then(|| "Python selenium is not installed (pip install selenium)".into())
}
