//! A zip archive in memory, for the page's PNG frames (one download rather than one per frame):
//! each file stored as it is (PNG data is already compressed), under one folder, so that
//! unpacking gives what the native recorder writes. Plain zip (no zip64): at most 65,535 files
//! and 4 GiB, which the page's memory reaches first.

use super::EncodeError;
use super::png_frames::FrameFiles;

/// The most files a plain zip holds.
const MAX_FILES: usize = u16::MAX as usize;

/// Files stored in a zip archive as they come; [`ZipFiles::finish`] writes the directory.
pub struct ZipFiles {
    bytes: Vec<u8>,
    folder: String,
    /// Each file's central directory record.
    directory: Vec<Vec<u8>>,
    /// When the files were made, in MS-DOS form: (time, date).
    stamp: (u16, u16),
}

impl ZipFiles {
    /// An archive whose files go into `folder` (a name without slashes), dated `unix_seconds`
    /// (the time of day as UTC).
    pub fn new(folder: &str, unix_seconds: u64) -> Self {
        ZipFiles {
            bytes: Vec::new(),
            folder: folder.to_owned(),
            directory: Vec::new(),
            stamp: dos_time(unix_seconds),
        }
    }

    /// The whole archive.
    pub fn finish(mut self) -> Result<Vec<u8>, EncodeError> {
        let start = self.bytes.len();
        for record in &self.directory {
            self.bytes.extend_from_slice(record);
        }
        let size = self.bytes.len() - start;
        let files = self.directory.len() as u16;
        let mut end = Vec::with_capacity(22);
        end.extend(0x0605_4b50u32.to_le_bytes());
        // This disk, the directory's disk, files on this disk, files in all.
        end.extend([0u8; 4]);
        end.extend(files.to_le_bytes());
        end.extend(files.to_le_bytes());
        end.extend(fits_32(size)?.to_le_bytes());
        end.extend(fits_32(start)?.to_le_bytes());
        // No comment.
        end.extend([0u8; 2]);
        self.bytes.extend(end);
        Ok(self.bytes)
    }
}

impl FrameFiles for ZipFiles {
    fn add(&mut self, name: &str, data: &[u8]) -> Result<(), EncodeError> {
        if self.directory.len() == MAX_FILES {
            return Err(too_large());
        }
        let name = format!("{}/{name}", self.folder);
        let offset = fits_32(self.bytes.len())?;
        let crc = crc32fast::hash(data);
        let size = fits_32(data.len())?;
        // Version needed 1.0 (stored), no flags, method 0 (stored), time, date, CRC, sizes.
        let mut fields = Vec::with_capacity(26);
        fields.extend(10u16.to_le_bytes());
        fields.extend([0u8; 4]);
        fields.extend(self.stamp.0.to_le_bytes());
        fields.extend(self.stamp.1.to_le_bytes());
        fields.extend(crc.to_le_bytes());
        fields.extend(size.to_le_bytes());
        fields.extend(size.to_le_bytes());
        fields.extend((name.len() as u16).to_le_bytes());
        // No extra field.
        fields.extend([0u8; 2]);
        self.bytes.extend(0x0403_4b50u32.to_le_bytes());
        self.bytes.extend_from_slice(&fields);
        self.bytes.extend_from_slice(name.as_bytes());
        self.bytes.extend_from_slice(data);
        fits_32(self.bytes.len())?;
        let mut record = Vec::with_capacity(46 + name.len());
        record.extend(0x0201_4b50u32.to_le_bytes());
        // Made by version 2.0 (MS-DOS attributes), then the local header's fields.
        record.extend(20u16.to_le_bytes());
        record.extend_from_slice(&fields);
        // No comment, disk 0, no attributes, where the local header starts.
        record.extend([0u8; 2 + 2 + 2 + 4]);
        record.extend(offset.to_le_bytes());
        record.extend_from_slice(name.as_bytes());
        self.directory.push(record);
        Ok(())
    }
}

fn fits_32(n: usize) -> Result<u32, EncodeError> {
    u32::try_from(n).map_err(|_| too_large())
}

fn too_large() -> EncodeError {
    EncodeError::from(std::io::Error::other(
        "PNG frames in a zip are limited to 65535 frames and 4 GB: record fewer frames or a smaller picture",
    ))
}

/// `unix_seconds` as MS-DOS (time, date): two-second steps, years from 1980 (earlier times are
/// 1980-01-01).
fn dos_time(unix_seconds: u64) -> (u16, u16) {
    let days = unix_seconds / 86_400;
    let seconds = unix_seconds % 86_400;
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    if year < 1980 {
        return (0, (1 << 5) | 1);
    }
    let time = ((seconds / 3600) << 11) | ((seconds % 3600 / 60) << 5) | ((seconds % 60) / 2);
    let date = ((year.min(2107) - 1980) << 9) | (month << 5) | day;
    (time as u16, date as u16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil_dates() {
        // 2026-11-27 20:31:58 UTC.
        let (time, date) = dos_time(1_795_811_518);
        assert_eq!((time >> 11, (time >> 5) & 63, (time & 31) * 2), (20, 31, 58));
        assert_eq!((1980 + (date >> 9), (date >> 5) & 15, date & 31), (2026, 11, 27));
        // 2000-02-29, a leap day.
        let (_, date) = dos_time(951_782_400);
        assert_eq!((1980 + (date >> 9), (date >> 5) & 15, date & 31), (2000, 2, 29));
        assert_eq!(dos_time(0), (0, 33), "before 1980: 1980-01-01");
    }
}
