//! Output paths replace only regular files (issue 59): a named pipe, or a
//! link to one, given as a checkpoint, a ledger or any other output is
//! refused before any work, and left as it was (the checkpoint writer
//! turned a FIFO into a regular file); a symbolic link to a regular file
//! is followed, the link kept and the file it names replaced.

mod common;

use common::mancala;

#[cfg(target_os = "linux")]
fn mkfifo(path: &std::path::Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid C string; mkfifo only creates a file.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

#[cfg(target_os = "linux")]
#[test]
fn outputs_refuse_special_files_and_follow_links() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fifo = d.join("f");
    mkfifo(&fifo);
    let to_fifo = d.join("to-fifo");
    std::os::unix::fs::symlink(&fifo, &to_fifo).unwrap();
    for target in [&fifo, &to_fifo] {
        let t = target.to_str().unwrap();
        for args in [
            &["solve", "kalah", "3", "3", "--no-tables", "--checkpoint", t][..],
            &[
                "prove",
                "kalah:3:3",
                "--ledger",
                t,
                "--max-table-seeds",
                "0",
            ][..],
            &[
                "match",
                "random",
                "random",
                "--game",
                "kalah:2:1",
                "--games",
                "2",
                "--games-out",
                t,
            ][..],
        ] {
            let (code, out, err) = mancala(args, d);
            assert_eq!(code, 2, "{args:?}: {out}{err}");
            assert!(err.contains("a named pipe"), "{args:?}: {err}");
            let meta = std::fs::symlink_metadata(&fifo).unwrap();
            assert!(meta.file_type().is_fifo(), "{args:?} replaced the FIFO");
        }
    }
    // A link to a regular file: the file is written, the link kept.
    let real = d.join("real.ckpt");
    std::fs::write(&real, b"old").unwrap();
    let link = d.join("link.ckpt");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let (code, _, err) = mancala(
        &[
            "solve",
            "kalah",
            "3",
            "3",
            "--no-tables",
            "--checkpoint",
            link.to_str().unwrap(),
            "--quiet",
        ],
        d,
    );
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_ne!(std::fs::read(&real).unwrap(), b"old");
}
