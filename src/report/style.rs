//! ANSI styling for table output, applied only when the context allows colour.

/// How table output looks: ANSI escapes when enabled (text untouched otherwise), and
/// the width in columns prose and tables are laid out for.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    enabled: bool,
    width: usize,
}

/// The width when nothing says otherwise (not a terminal, no `COLUMNS`).
pub(crate) const DEFAULT_WIDTH: usize = 100;

impl Style {
    pub fn new(enabled: bool) -> Style {
        Style {
            enabled,
            width: DEFAULT_WIDTH,
        }
    }

    /// The same style laid out for `width` columns.
    pub fn with_width(self, width: usize) -> Style {
        Style { width, ..self }
    }

    /// The columns prose and tables must fit in.
    pub fn width(self) -> usize {
        self.width
    }

    fn paint(self, code: &str, text: &str) -> String {
        if self.enabled {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    pub fn bold(self, text: &str) -> String {
        self.paint("1", text)
    }

    pub fn dim(self, text: &str) -> String {
        self.paint("2", text)
    }

    pub fn red(self, text: &str) -> String {
        self.paint("1;31", text)
    }

    pub fn yellow(self, text: &str) -> String {
        self.paint("33", text)
    }

    pub fn green(self, text: &str) -> String {
        self.paint("32", text)
    }

    pub fn cyan(self, text: &str) -> String {
        self.paint("36", text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_when_disabled() {
        assert_eq!(Style::new(false).red("x"), "x");
        assert_eq!(Style::new(true).red("x"), "\x1b[1;31mx\x1b[0m");
    }
}
