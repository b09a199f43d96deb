//! `--games-out FILE` of `mancala match` and `mancala tournament`: one JSON
//! record per game and line, zstd-compressed when the name ends in `.zst`,
//! written to a temporary file opened before the games are played (a bad
//! path fails at once) and renamed over `FILE` when complete.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use mancala_solver::error::{Error, Result};
use mancala_solver::play::arena::{GameRecord, GameSpec};

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

/// An open `--games-out` file.
pub struct GamesOut {
    path: PathBuf,
    tmp: PathBuf,
    sink: Sink,
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
            sink,
        })
    }

    /// Write every record of `records` (games of `game`), then finish the
    /// file and rename it into place.
    pub fn write_all(self, game: &GameSpec, records: &[GameRecord]) -> Result<()> {
        let GamesOut { path, tmp, sink } = self;
        let write = move || -> std::io::Result<()> {
            let mut sink = sink;
            let w: &mut dyn Write = match &mut sink {
                Sink::Plain(w) => w,
                Sink::Zstd(z) => z,
            };
            for r in records {
                let line = serde_json::to_string(&Record {
                    record: r,
                    replay: replay_command(game, &r.moves),
                })
                .expect("json");
                writeln!(w, "{line}")?;
            }
            let file = match sink {
                Sink::Plain(w) => w,
                Sink::Zstd(z) => z.finish()?,
            };
            file.into_inner().map_err(|e| e.into_error())?.sync_all()
        };
        let done = write().and_then(|()| std::fs::rename(&tmp, &path));
        if let Err(e) = done {
            let _ = std::fs::remove_file(&tmp);
            return Err(Error::io(&path, e));
        }
        Ok(())
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
