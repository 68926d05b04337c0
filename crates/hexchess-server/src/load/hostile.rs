//! The hostile side of a load run (issue 62): connections that flood the server with
//! wrong passwords (in bursts, as many as their message rate allows), follow the lobby and never read, or churn seeks, beside the games;
//! and the server's memory, sampled from /proc while they do.

use std::collections::VecDeque;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::time::Instant;

use super::LoadArgs;
use crate::client::Client;
use hexchess_protocol::{ClientMessage, FromServer, SeekRequest, ServerMessage};

/// Runs the hostile connections `args` asks for until `deadline`; what they met, as
/// JSON (`null` when it asked for none).
pub async fn run(args: LoadArgs, deadline: Instant) -> Value {
    if args.login_flood + args.sleepers + args.seekers == 0 && args.server_pid.is_none() {
        return Value::Null;
    }
    let mut sleepers = Vec::new();
    for _ in 0..args.sleepers {
        if let Ok(mut c) = Client::hello(&args.url[0], None).await
            && c.send_message(&ClientMessage::Lobby).await.is_ok()
        {
            sleepers.push(c); // never read again
        }
    }
    let mut tasks = Vec::new();
    for i in 0..args.login_flood {
        tasks.push(tokio::spawn(flood(args.url[0].clone(), i, deadline)));
    }
    for _ in 0..args.seekers {
        tasks.push(tokio::spawn(seek(args.url[0].clone(), deadline)));
    }
    let mut peak_rss: f64 = 0.0;
    while Instant::now() < deadline {
        if let Some(pid) = args.server_pid {
            peak_rss = peak_rss.max(rss_mib(pid));
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let mut answers = Answers::default();
    for t in tasks {
        if let Ok(a) = t.await {
            answers.add(&a);
        }
    }
    drop(sleepers);
    json!({
        "sleepers": args.sleepers,
        "seekers": args.seekers,
        "login_flood": args.login_flood,
        "sign_ins_checked": answers.checked,
        "sign_ins_limited": answers.limited,
        "sign_ins_busy": answers.busy,
        "sign_ins_other": answers.other,
        "seeks_made": answers.seeks,
        "server_peak_rss_mib": args.server_pid.map(|_| (peak_rss * 10.0).round() / 10.0),
    })
}

#[derive(Default)]
struct Answers {
    checked: u64,
    limited: u64,
    busy: u64,
    other: u64,
    seeks: u64,
}

impl Answers {
    fn add(&mut self, other: &Answers) {
        self.checked += other.checked;
        self.limited += other.limited;
        self.busy += other.busy;
        self.other += other.other;
        self.seeks += other.seeks;
    }
}

/// Wrong passwords in bursts: 95 sent at once (under the 100 a connection may send in
/// 20 s), their answers read, the next burst when the window has passed; until
/// `deadline`.
async fn flood(url: String, i: usize, deadline: Instant) -> Answers {
    let mut answers = Answers::default();
    let Ok(mut c) = Client::hello(&url, None).await else {
        return answers;
    };
    while Instant::now() < deadline {
        let window = Instant::now() + Duration::from_millis(20_500);
        let name = format!("nobody{}", i % 3);
        let login = ClientMessage::Login {
            name,
            password: "not the password".into(),
        };
        for _ in 0..BURST {
            if c.send_message(&login).await.is_err() {
                return answers;
            }
        }
        for _ in 0..BURST {
            let error = |m: &FromServer| matches!(m, FromServer::Message(ServerMessage::Error(_)));
            let Ok(Ok(FromServer::Message(ServerMessage::Error(answer)))) =
                tokio::time::timeout_at(deadline, c.wait_message(error, "error")).await
            else {
                return answers;
            };
            let said = answer.message.as_str();
            if said.contains("no account with that name") {
                answers.checked += 1;
            } else if said.contains("too many sign-ins") {
                answers.limited += 1;
            } else if said.contains("busy") {
                answers.busy += 1;
            } else {
                answers.other += 1;
            }
        }
        tokio::time::sleep_until(window.min(deadline)).await;
    }
    answers
}

/// Logins in one burst of the flood.
const BURST: usize = 95;

/// Ten public seeks kept open, the oldest changed for a new one every 420 ms (two
/// messages a round, under 100 in 20 s), until `deadline`.
async fn seek(url: String, deadline: Instant) -> Answers {
    let mut answers = Answers::default();
    let Ok(mut c) = Client::hello(&url, None).await else {
        return answers;
    };
    let mut mine = VecDeque::new();
    while Instant::now() < deadline {
        if mine.len() == 10
            && let Some(id) = mine.pop_front()
            && c.send_message(&ClientMessage::Cancel { seek: id })
                .await
                .is_err()
        {
            break;
        }
        let seek = ClientMessage::Seek(SeekRequest {
            variant: "mccooey".into(),
            minutes: Some(5),
            increment: 3,
            ..SeekRequest::default()
        });
        if c.send_message(&seek).await.is_err() {
            break;
        }
        let reply = |m: &FromServer| matches!(m, FromServer::Message(ServerMessage::Seek(_)));
        match c.wait_message(reply, "seek").await {
            Ok(FromServer::Message(ServerMessage::Seek(answer))) => {
                answers.seeks += 1;
                mine.push_back(answer.id);
            }
            _ => break,
        }
        tokio::time::sleep(Duration::from_millis(420)).await;
    }
    answers
}

/// A process's resident memory in MiB (Linux's /proc; 0 elsewhere).
fn rss_mib(pid: u32) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}
