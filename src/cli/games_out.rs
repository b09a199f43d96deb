//! `--games-out FILE` of `mancala match` and `mancala tournament`: one JSON
//! record per game and line, zstd-compressed when the name ends in `.zst`,
//! written to a temporary file opened before the games are played (a bad
//! path fails at once) as the games finish, and renamed over `FILE` when
//! the match is complete (removed if it is not).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use mancala_solver::error::{Error, Result};
use mancala_solver::play::arena::GameSpec;
use mancala_solver::play::report::GameRecord;

/// zstd level of a `.zst` games file (zstd's default).
const ZSTD_LEVEL: i32 = 3;

/// A game record as written to `--games-out`: the library's record and the
/// command that replays it.
#[derive(serde::Serialize)]
struct Record<'a> {
    #[serde(flatten)]
    record: &'a GameRecord,
    replay: String,
}

/// Where the lines go: plain or through a zstd encoder.
enum Sink {
    Plain(BufWriter<File>),
    Zstd(zstd::stream::write::Encoder<'static, BufWriter<File>>),
}

/// An open `--games-out` file. Dropped unfinished (the match failed or
/// stopped), it removes its temporary file.
pub struct GamesOut {
    path: PathBuf,
    tmp: PathBuf,
    /// `None` once finished or failed.
    sink: Option<Sink>,
}

/// Whether `path` names a zstd-compressed file (`.zst`).
pub fn is_zstd(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "zst")
}

impl GamesOut {
    /// Open the temporary file beside `path`.
    pub fn create(path: &Path) -> Result<GamesOut> {
        let path = &mancala_solver::atomic::target(path)?;
        let tmp = mancala_solver::atomic::temp_path(path, "games");
        let file = BufWriter::new(File::create(&tmp).map_err(|e| Error::io(path, e))?);
        let sink = if is_zstd(path) {
            let open = || -> std::io::Result<_> {
                let mut z = zstd::stream::write::Encoder::new(file, ZSTD_LEVEL)?;
                z.include_checksum(true)?;
                Ok(z)
            };
            match open() {
                Ok(z) => Sink::Zstd(z),
                Err(e) => {
                    let _ = std::fs::remove_file(&tmp);
                    return Err(Error::io(path, e));
                }
            }
        } else {
            Sink::Plain(file)
        };
        Ok(GamesOut {
            path: path.to_path_buf(),
            tmp,
            sink: Some(sink),
        })
    }

    /// Write the line of `record` (a game of `game`).
    pub fn write(&mut self, game: &GameSpec, record: &GameRecord) -> Result<()> {
        let line = serde_json::to_string(&Record {
            record,
            replay: replay_command(game, &record.moves),
        })
        .expect("json");
        let w: &mut dyn Write = match &mut self.sink {
            Some(Sink::Plain(w)) => w,
            Some(Sink::Zstd(z)) => z,
            None => return Ok(()),
        };
        writeln!(w, "{line}").map_err(|e| self.fail(e))
    }

    /// Finish the file and rename it into place.
    pub fn finish(mut self) -> Result<()> {
        let Some(sink) = self.sink.take() else {
            return Ok(());
        };
        let done = (|| -> std::io::Result<()> {
            let file = match sink {
                Sink::Plain(w) => w,
                Sink::Zstd(z) => z.finish()?,
            };
            file.into_inner().map_err(|e| e.into_error())?.sync_all()?;
            std::fs::rename(&self.tmp, &self.path)
        })();
        done.map_err(|e| self.fail(e))
    }

    /// The error of a failed write, the temporary file removed.
    fn fail(&mut self, e: std::io::Error) -> Error {
        self.sink = None;
        let _ = std::fs::remove_file(&self.tmp);
        Error::io(&self.path, e)
    }
}

impl Drop for GamesOut {
    fn drop(&mut self) {
        if self.sink.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// The `mancala play` command that replays `moves` in `game`.
fn replay_command(game: &GameSpec, moves: &str) -> String {
    let rules = match game.rules.rules_name() {
        Some(r) if r != "default" => format!(" --rules {r}"),
        _ => String::new(),
    };
    format!(
        "mancala play {} {} {}{rules} --moves {moves}",
        game.rules.game_name(),
        game.pits,
        game.seeds
    )
}
