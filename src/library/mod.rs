//! A library of sources a debate reads: files and folders walked as git
//! would ([`walk`]), each read as text ([`document`]; PDFs and HTML
//! through [`convert`]), cut into passages
//! ([`passage`]) and indexed for full-text search ([`index`]); what was
//! read is recorded ([`record`]) so a resume can say what changed; the
//! index is kept between debates in heat's data dir ([`kept`]). Knows
//! nothing of debates: the debate asks it for passages and checks
//! citations against it.

pub mod catalog;
pub mod convert;
pub mod document;
pub mod index;
pub mod kept;
pub mod passage;
pub mod record;
pub mod walk;

pub use catalog::{Hit, Library, LibraryError, Shared};
pub use document::Document;
pub use passage::Passage;
pub use record::{FileRecord, LibraryRecord};
