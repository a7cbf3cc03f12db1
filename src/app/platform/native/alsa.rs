//! The steps' sound on Linux, through ALSA loaded when the sound is first turned on
//! (`libasound.so.2`, by `dlopen`): the program builds without ALSA's headers and runs where ALSA
//! is missing (servers, containers), which a library linked at build time would not; only
//! asking for sound there says that there is none. A thread writes the samples, ALSA pacing it.
#![allow(unsafe_code, reason = "ALSA's C functions, loaded at run time; see each SAFETY")]

use crate::app::platform::SoundOut;
use std::ffi::{CStr, c_char, c_int, c_long, c_uint, c_ulong, c_void};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Sender, channel};

/// The rate asked of the device (ALSA's plug layer converts where the device has another).
const RATE: u32 = 48_000;
/// The most sound queued, in samples (a second): steps that come faster than they sound are
/// dropped rather than fall ever further behind the picture.
const MOST_QUEUED: usize = RATE as usize;
/// How far ahead the device may buffer, in microseconds.
const LATENCY_US: c_uint = 100_000;

// From <alsa/pcm.h>.
const SND_PCM_STREAM_PLAYBACK: c_int = 0;
const SND_PCM_FORMAT_S16_LE: c_int = 2;
const SND_PCM_ACCESS_RW_INTERLEAVED: c_int = 3;

type Open = unsafe extern "C" fn(*mut *mut c_void, *const c_char, c_int, c_int) -> c_int;
type SetParams = unsafe extern "C" fn(*mut c_void, c_int, c_int, c_uint, c_uint, c_int, c_uint) -> c_int;
type Writei = unsafe extern "C" fn(*mut c_void, *const c_void, c_ulong) -> c_long;
type Recover = unsafe extern "C" fn(*mut c_void, c_int, c_int) -> c_int;
type Close = unsafe extern "C" fn(*mut c_void) -> c_int;
type Strerror = unsafe extern "C" fn(c_int) -> *const c_char;

/// The few functions of libasound the sound uses.
struct Alsa {
    open: Open,
    set_params: SetParams,
    writei: Writei,
    recover: Recover,
    close: Close,
    strerror: Strerror,
}

impl Alsa {
    /// libasound, loaded (and kept loaded: the process ends with it).
    fn load() -> Result<Alsa, String> {
        // SAFETY: dlopen and dlsym with NUL-terminated names; each symbol is cast to the
        // signature <alsa/pcm.h> and <alsa/error.h> give it.
        unsafe {
            let lib = libc::dlopen(c"libasound.so.2".as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL);
            if lib.is_null() {
                return Err("ALSA (libasound.so.2) is not installed".into());
            }
            let symbol = |name: &CStr| {
                let found = libc::dlsym(lib, name.as_ptr());
                if found.is_null() {
                    Err(format!("ALSA lacks {}", name.to_string_lossy()))
                } else {
                    Ok(found)
                }
            };
            Ok(Alsa {
                open: std::mem::transmute::<*mut c_void, Open>(symbol(c"snd_pcm_open")?),
                set_params: std::mem::transmute::<*mut c_void, SetParams>(symbol(c"snd_pcm_set_params")?),
                writei: std::mem::transmute::<*mut c_void, Writei>(symbol(c"snd_pcm_writei")?),
                recover: std::mem::transmute::<*mut c_void, Recover>(symbol(c"snd_pcm_recover")?),
                close: std::mem::transmute::<*mut c_void, Close>(symbol(c"snd_pcm_close")?),
                strerror: std::mem::transmute::<*mut c_void, Strerror>(symbol(c"snd_strerror")?),
            })
        }
    }

    /// ALSA's words for error `code`.
    fn error(&self, code: c_int) -> String {
        // SAFETY: snd_strerror returns a static NUL-terminated string for any code.
        unsafe { CStr::from_ptr((self.strerror)(code)).to_string_lossy().into_owned() }
    }
}

/// The default ALSA device, playing what the thread is sent.
pub(in crate::app) struct AlsaSound {
    /// Where samples go to the writer (none once the sound is let go).
    samples: Option<Sender<Vec<i16>>>,
    queued: Arc<AtomicUsize>,
    /// Set when the sound is let go: the writer skips what is queued and closes the device.
    stopping: Arc<AtomicBool>,
    writer: Option<std::thread::JoinHandle<()>>,
}

impl Drop for AlsaSound {
    /// Waits for the writer to close the device (which hands on what it holds), so nothing of
    /// it is left half done when the window closes.
    fn drop(&mut self) {
        self.stopping.store(true, Ordering::Relaxed);
        self.samples = None;
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
    }
}

/// An open PCM handle, moved to the thread that writes to it.
struct Pcm(*mut c_void);
// SAFETY: the handle is used by one thread at a time: made here, then only the writer's.
unsafe impl Send for Pcm {}

impl SoundOut for AlsaSound {
    fn open() -> Result<Self, String> {
        let alsa = Alsa::load()?;
        let mut pcm = std::ptr::null_mut();
        // SAFETY: a valid out-pointer and name; the handle is closed by the writer thread.
        let opened = unsafe { (alsa.open)(&mut pcm, c"default".as_ptr(), SND_PCM_STREAM_PLAYBACK, 0) };
        if opened < 0 {
            return Err(format!("no sound device could be opened ({})", alsa.error(opened)));
        }
        let (format, access) = (SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED);
        // SAFETY: an open handle; one channel of interleaved 16-bit samples, resampled by ALSA.
        let set = unsafe { (alsa.set_params)(pcm, format, access, 1, RATE, 1, LATENCY_US) };
        if set < 0 {
            // SAFETY: the handle opened above, closed once.
            unsafe { (alsa.close)(pcm) };
            return Err(format!("the sound device refused 16-bit mono at {RATE} Hz ({})", alsa.error(set)));
        }
        let (samples, received) = channel::<Vec<i16>>();
        let queued = Arc::new(AtomicUsize::new(0));
        let stopping = Arc::new(AtomicBool::new(false));
        let (pcm, left, stop) = (Pcm(pcm), queued.clone(), stopping.clone());
        let writer = move || {
            let pcm = pcm;
            for block in received {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let mut rest = block.as_slice();
                while !rest.is_empty() {
                    // SAFETY: the handle is this thread's; `rest` holds `len` frames of one sample.
                    let wrote = unsafe { (alsa.writei)(pcm.0, rest.as_ptr().cast(), rest.len() as c_ulong) };
                    if wrote >= 0 {
                        rest = &rest[wrote as usize..];
                    // SAFETY: as above; an underrun or suspend is recovered, anything else ends it.
                    } else if unsafe { (alsa.recover)(pcm.0, wrote as c_int, 1) } < 0 {
                        log::warn!("the sound device failed: {}", alsa.error(wrote as c_int));
                        // SAFETY: closed once, by its only user.
                        unsafe { (alsa.close)(pcm.0) };
                        return;
                    }
                }
                left.fetch_sub(block.len(), Ordering::Relaxed);
            }
            // SAFETY: closed once, by its only user, once the window lets the sound go.
            unsafe { (alsa.close)(pcm.0) };
        };
        let writer = std::thread::Builder::new()
            .name("sound".into())
            .spawn(writer)
            .map_err(|e| format!("cannot start the sound's thread: {e}"))?;
        Ok(AlsaSound { samples: Some(samples), queued, stopping, writer: Some(writer) })
    }

    fn rate(&self) -> u32 {
        RATE
    }

    fn describe(&self) -> String {
        format!("{RATE} Hz, 1 channel of i16, ALSA's default device")
    }

    fn play(&mut self, samples: &[i16], volume: f32) {
        if self.queued.load(Ordering::Relaxed) + samples.len() > MOST_QUEUED {
            return;
        }
        let scaled: Vec<i16> = samples.iter().map(|&s| (f32::from(s) * volume).round() as i16).collect();
        self.queued.fetch_add(scaled.len(), Ordering::Relaxed);
        if self.samples.as_ref().is_none_or(|s| s.send(scaled).is_err()) {
            self.queued.store(usize::MAX / 2, Ordering::Relaxed);
        }
    }
}
