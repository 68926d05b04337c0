//! A server on this machine's loopback, on its own thread: for a program that embeds
//! one (and the game's and the bridge's tests). Stopped when dropped, every
//! connection cut as a crash would cut it.

use std::thread::JoinHandle;
use std::time::Duration;

use tokio::sync::oneshot;

use crate::hub::{Hub, Limits};
use crate::store::{Store, sqlite_url};

/// A running server.
pub struct LocalServer {
    /// Its socket: `ws://127.0.0.1:PORT/socket`.
    pub url: String,
    /// The port it listens on, on 127.0.0.1.
    pub port: u16,
    /// Its database's URL.
    pub database: String,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl LocalServer {
    /// On a new SQLite file in the system's temporary folder, on a free port.
    pub fn start_fresh() -> Result<LocalServer, String> {
        let dir = std::env::temp_dir().join(format!(
            "hexchess-server-{}-{}",
            std::process::id(),
            crate::secret::new_code(8)
        ));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        LocalServer::start(sqlite_url(&dir), 0)
    }

    /// On `database`, at 127.0.0.1:`port` (0: any free port).
    pub fn start(database: String, port: u16) -> Result<LocalServer, String> {
        let (tx, rx) = std::sync::mpsc::channel();
        let (stop, stopped) = oneshot::channel::<()>();
        let url = database.clone();
        let thread = std::thread::spawn(move || {
            let runtime = match tokio::runtime::Runtime::new() {
                Ok(r) => r,
                Err(e) => return drop(tx.send(Err(e.to_string()))),
            };
            runtime.block_on(async move {
                let started = async {
                    let store = Store::open(&url).await.map_err(|e| e.to_string())?;
                    let hub = Hub::start(store, Limits::default())
                        .await
                        .map_err(|e| e.to_string())?;
                    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
                        .await
                        .map_err(|e| e.to_string())?;
                    Ok::<_, String>((hub, listener))
                };
                let (hub, listener) = match started.await {
                    Ok(s) => s,
                    Err(e) => return drop(tx.send(Err(e))),
                };
                let _ = tx.send(listener.local_addr().map_err(|e| e.to_string()));
                tokio::select! {
                    _ = crate::http::serve(listener, hub, None) => {}
                    _ = stopped => {}
                }
            });
            // Dropping the runtime ends every task: rooms, connections.
            runtime.shutdown_timeout(Duration::from_secs(1));
        });
        let address = rx
            .recv()
            .map_err(|_| "the server's thread ended".to_string())??;
        Ok(LocalServer {
            url: format!("ws://{address}/socket"),
            port: address.port(),
            database,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// Stops it (its connections cut), and waits for its thread.
    pub fn stop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }

    /// Stops it and starts it again on the same port and database.
    pub fn restart(mut self) -> Result<LocalServer, String> {
        self.stop();
        LocalServer::start(self.database.clone(), self.port)
    }
}

impl Drop for LocalServer {
    fn drop(&mut self) {
        self.stop();
    }
}
