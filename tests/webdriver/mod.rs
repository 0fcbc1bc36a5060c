//! A minimal WebDriver client over plain `std::net`, for driving Debian's headless Chromium
//! through its chromedriver (packages `chromium` and `chromium-driver`): start a session, open a
//! page, press keys, run a script that returns a string, take a screenshot; a desktop window or a
//! phone's screen (chromedriver's mobile emulation: the window's minimum width in headless
//! Chromium is 500 px, a phone's viewport is narrower). Only what the analysis page's browser
//! tests need (W3C WebDriver, <https://www.w3.org/TR/webdriver2/>).

#![allow(clippy::unwrap_used, clippy::doc_markdown, dead_code)] // a test may unwrap: a failure is its report; names of protocols read as words

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The W3C WebDriver key codes the page answers.
pub const LEFT: &str = "\\uE012";
/// Right arrow.
pub const RIGHT: &str = "\\uE014";
/// Home.
pub const HOME: &str = "\\uE011";
/// End.
pub const END: &str = "\\uE010";

/// A chromedriver process and one browser session in it; both end when dropped.
pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
}

/// A port nobody listens on now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// One HTTP request to the driver; the answer's body.
fn http(port: u16, method: &str, path: &str, body: &str) -> std::io::Result<String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    // The answer's head, then as many bytes as it says (the driver may keep the connection).
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if stream.read(&mut byte)? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head).to_ascii_lowercase();
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .map_or(0, |n| n.trim().parse().unwrap());
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body)?;
    Ok(String::from_utf8_lossy(&body).into_owned())
}

/// The JSON string that follows `key` in `json` (without escapes to undo but `\/`).
pub fn string_after(json: &str, key: &str) -> String {
    let at = json
        .find(&format!("\"{key}\":\""))
        .unwrap_or_else(|| panic!("no {key} in {json}"));
    let rest = &json[at + key.len() + 4..];
    rest[..rest.find('"').unwrap()].replace("\\/", "/")
}

impl Browser {
    /// Starts chromedriver and a headless Chromium session with the flags this machine needs,
    /// a fresh profile in `profile`, the window `width` x `height`.
    pub fn start(profile: &Path, width: u32, height: u32) -> Browser {
        Browser::start_with(profile, width, height, "")
    }

    /// As `start`, with a phone's screen of `width` x `height` CSS pixels (a mobile viewport
    /// that reads the page's `<meta name="viewport">`, touch events), as Chromium's device
    /// mode shows it.
    pub fn start_phone(profile: &Path, width: u32, height: u32) -> Browser {
        let emulation = format!(
            ",\"mobileEmulation\":{{\"deviceMetrics\":{{\"width\":{width},\"height\":{height},\
             \"pixelRatio\":1,\"mobile\":true,\"touch\":true}}}}"
        );
        Browser::start_with(profile, 1000, 1000, &emulation)
    }

    /// Starts the session with `extra` Chromium options (a JSON fragment after the `args`).
    fn start_with(profile: &Path, width: u32, height: u32, extra: &str) -> Browser {
        let port = free_port();
        let driver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver is installed (Debian package chromium-driver)");
        let start = Instant::now();
        while http(port, "GET", "/status", "").is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "chromedriver starts"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = std::fs::remove_dir_all(profile);
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            &format!("--user-data-dir={}", profile.display()),
            &format!("--window-size={width},{height}"),
        ]
        .map(|a| format!("\"{a}\""))
        .join(",");
        let caps = format!(
            "{{\"capabilities\":{{\"alwaysMatch\":{{\"browserName\":\"chrome\",\
             \"goog:chromeOptions\":{{\"binary\":\"/usr/bin/chromium\",\"args\":[{args}]{extra}}}}}}}}}"
        );
        let answer = http(port, "POST", "/session", &caps).unwrap();
        let session = string_after(&answer, "sessionId");
        Browser {
            driver,
            port,
            session,
        }
    }

    /// A command of the session: its answer.
    fn command(&self, method: &str, path: &str, body: &str) -> String {
        let answer = http(
            self.port,
            method,
            &format!("/session/{}{path}", self.session),
            body,
        )
        .unwrap();
        assert!(!answer.contains("\"error\":"), "{path}: {answer}");
        answer
    }

    /// Opens a page.
    pub fn open(&self, url: &str) {
        self.command("POST", "/url", &format!("{{\"url\":\"{url}\"}}"));
    }

    /// Presses and releases a key (one of the constants above).
    pub fn key(&self, key: &str) {
        let body = format!(
            "{{\"actions\":[{{\"type\":\"key\",\"id\":\"keyboard\",\"actions\":[\
             {{\"type\":\"keyDown\",\"value\":\"{key}\"}},{{\"type\":\"keyUp\",\"value\":\"{key}\"}}]}}]}}"
        );
        self.command("POST", "/actions", &body);
    }

    /// Runs `script` (a function body that returns a string without quotes or backslashes) and
    /// gives what it returned.
    pub fn run(&self, script: &str) -> String {
        let body = format!(
            "{{\"script\":\"{}\",\"args\":[]}}",
            script.replace('\\', "\\\\").replace('"', "\\\"")
        );
        string_after(&self.command("POST", "/execute/sync", &body), "value")
    }

    /// A screenshot of the window as PNG.
    pub fn screenshot(&self) -> Vec<u8> {
        base64(&string_after(
            &self.command("GET", "/screenshot", ""),
            "value",
        ))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = http(
            self.port,
            "DELETE",
            &format!("/session/{}", self.session),
            "",
        );
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Standard base64 (RFC 4648) decoded.
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut n = 0u32;
        for (i, &d) in chunk.iter().enumerate() {
            n |= u32::from(d) << (18 - 6 * i);
        }
        let bytes = n.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}

#[test]
fn base64_decodes() {
    assert_eq!(base64("TWFu"), b"Man");
    assert_eq!(base64("TWE="), b"Ma");
    assert_eq!(base64("TQ=="), b"M");
}
