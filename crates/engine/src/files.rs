//! Files the tool reads: regular files only, opened without blocking and
//! read up to a bound.
//!
//! A path given by a user may name a named pipe (opening it for reading
//! blocks until a writer comes), a device (`/dev/zero` never ends) or a
//! directory. Every file the library reads goes through [`open_regular`]
//! or [`read_limited`]: anything but a regular file is refused with
//! [`Error::NotAFile`] before a byte is read, and a whole-file read stops
//! at a bound the caller knows for its kind of file.

use std::fs::{File, FileType, OpenOptions};
use std::io::Read;
use std::path::Path;

use crate::error::{Error, Result};

/// What a file type that is not a regular file is, for messages.
pub fn describe(t: &FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a named pipe";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// Open `path` for reading if it is a regular file (symbolic links
/// followed); [`Error::NotAFile`] if it is anything else, without blocking
/// on a named pipe.
pub fn open_regular(path: &Path) -> Result<File> {
    open_regular_with(path, OpenOptions::new().read(true))
}

/// Open `path` with `options` if it is a regular file or, when `options`
/// create files, does not exist; [`Error::NotAFile`] if it is anything
/// else. The file is opened non-blocking (a named pipe put there in the
/// meantime fails the open or is refused, it never blocks it); on a
/// regular file that changes nothing.
pub fn open_regular_with(path: &Path, options: &mut OpenOptions) -> Result<File> {
    if let Ok(meta) = std::fs::metadata(path) {
        if !meta.is_file() {
            return Err(Error::NotAFile {
                path: path.to_path_buf(),
                kind: describe(&meta.file_type()),
            });
        }
    }
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| Error::io(path, e))?;
    let meta = file.metadata().map_err(|e| Error::io(path, e))?;
    if !meta.is_file() {
        return Err(Error::NotAFile {
            path: path.to_path_buf(),
            kind: describe(&meta.file_type()),
        });
    }
    Ok(file)
}

/// `text` without a leading byte-order mark (U+FEFF), which some editors
/// put at the start of a UTF-8 text file: it says nothing in UTF-8, and
/// left in place it makes the first word unreadable.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Create the directory `path` and its missing parents (nothing when it
/// exists); [`Error::NotADirectory`] when `path`, or a part of it, is a
/// file or anything else but a directory (the operating system would say
/// only "File exists" or "Not a directory").
pub fn create_dir(path: &Path) -> Result<()> {
    for part in path.ancestors().filter(|p| !p.as_os_str().is_empty()) {
        if let Ok(meta) = std::fs::metadata(part) {
            if meta.is_dir() {
                break;
            }
            return Err(Error::NotADirectory {
                path: part.to_path_buf(),
                kind: if meta.is_file() {
                    "a file"
                } else {
                    describe(&meta.file_type())
                },
            });
        }
    }
    std::fs::create_dir_all(path).map_err(|e| Error::io(path, e))
}

/// The whole of the regular file `path`, if it holds at most `max` bytes;
/// else [`Error::FileTooLarge`] naming `what` it should have been. Never
/// reads more than `max + 1` bytes, whatever the file.
pub fn read_limited(path: &Path, max: u64, what: &'static str) -> Result<Vec<u8>> {
    let file = open_regular(path)?;
    let too_large = || Error::FileTooLarge {
        path: path.to_path_buf(),
        max,
        what,
    };
    let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
    if len > max {
        return Err(too_large());
    }
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    if bytes.len() as u64 > max {
        return Err(too_large());
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directories_and_devices_are_refused_and_reads_are_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let e = open_regular(dir.path()).unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
        #[cfg(unix)]
        {
            let e = read_limited(Path::new("/dev/zero"), 10, "a test file").unwrap_err();
            assert!(e.to_string().contains("a character device"), "{e}");
        }
        let f = dir.path().join("f");
        std::fs::write(&f, b"12345").unwrap();
        assert_eq!(read_limited(&f, 5, "a test file").unwrap(), b"12345");
        let e = read_limited(&f, 4, "a test file").unwrap_err();
        assert!(matches!(e, Error::FileTooLarge { max: 4, .. }), "{e}");
        let e = create_dir(&f).unwrap_err();
        assert!(
            matches!(&e, Error::NotADirectory { path, kind: "a file" } if path == &f),
            "{e}"
        );
        let e = create_dir(&f.join("sub")).unwrap_err();
        assert!(
            matches!(&e, Error::NotADirectory { path, .. } if path == &f),
            "{e}"
        );
        create_dir(&dir.path().join("a/b")).unwrap();
        create_dir(&dir.path().join("a/b")).unwrap();
        let e = open_regular(&dir.path().join("missing")).unwrap_err();
        assert!(
            matches!(&e, Error::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound),
            "{e}"
        );
    }
}
