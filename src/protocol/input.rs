//! The input thread: stdin becomes lines (bytes decoded lossily, each at most `MAX_LINE` long)
//! sent over the session's channel, then `Eof`.

use super::command::MAX_LINE;
use super::event::Event;
use std::io::{self, BufRead};
use std::sync::mpsc::SyncSender;

/// Splits `input` into lines and sends them, then `Eof`. Never holds more than `MAX_LINE` bytes
/// of one line.
pub(super) fn read_lines(mut input: impl BufRead, tx: &SyncSender<Event>) {
    let mut line = Vec::new();
    let mut dropped = 0usize;
    let event = |line: &[u8], dropped: usize| {
        if dropped > 0 {
            Event::TooLong(line.len() + dropped)
        } else {
            Event::Line(String::from_utf8_lossy(line).into_owned())
        }
    };
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                log::warn!("reading input: {e}");
                break;
            }
        };
        if buf.is_empty() {
            if !line.is_empty() || dropped > 0 {
                let _ = tx.send(event(&line, dropped));
            }
            break;
        }
        let newline = buf.iter().position(|&b| b == b'\n');
        let chunk = &buf[..newline.unwrap_or(buf.len())];
        let take = chunk.len().min(MAX_LINE.saturating_sub(line.len()));
        line.extend_from_slice(&chunk[..take]);
        dropped = dropped.saturating_add(chunk.len() - take);
        let used = newline.map_or(buf.len(), |i| i + 1);
        input.consume(used);
        if newline.is_some() {
            if tx.send(event(&line, dropped)).is_err() {
                return;
            }
            line.clear();
            dropped = 0;
        }
    }
    let _ = tx.send(Event::Eof);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    #[test]
    fn reader_bounds_lines_and_decodes_lossily() {
        let (tx, rx) = mpsc::sync_channel(16);
        let mut input = b"uci\r\n\xff\xfe go\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
        input.extend(b"\nisready");
        read_lines(&input[..], &tx);
        let got: Vec<String> = rx
            .try_iter()
            .map(|e| match e {
                Event::Line(t) => t,
                Event::TooLong(n) => format!("too long {n}"),
                Event::Eof => "eof".into(),
                _ => "?".into(),
            })
            .collect();
        assert_eq!(
            got,
            vec![
                "uci\r".to_string(),
                "\u{fffd}\u{fffd} go".into(),
                format!("too long {}", MAX_LINE + 10),
                "isready".into(),
                "eof".into()
            ]
        );
    }
}
