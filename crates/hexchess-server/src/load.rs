//! `hexchess-server load`: simulated players against a server (written next).
use clap::Args;

#[derive(Args, Debug)]
pub struct LoadArgs {
    #[arg(long)]
    pub url: String,
}

pub async fn run(_args: LoadArgs) -> Result<(), String> {
    Err("not yet".into())
}
