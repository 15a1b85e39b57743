//! A chapter's "Check yourself" questions as data: what the page shows them as, and what
//! `cargo xtask cartridge` turns into a quiz a course site grades.
//!
//! The questions are the last section of a chapter (its last `## ` heading, whatever the language
//! calls it). Each opens with its number in bold, `**1.** …`, is followed by its choices, a list whose
//! items start `[x]` (a right answer) or `[ ]` (a wrong one), and then by the folded worked answer:
//!
//! ```text
//! **1.** Set workers to 1 and tasks to 8 and run. Is the concurrent version faster or slower?
//!
//! - [ ] About 8× faster: eight tasks add in parallel
//! - [x] About the same or a little slower
//! - [ ] Several times slower: starting eight tasks costs more than the adding
//!
//! <!-- fold: Answer -->
//! Usually about the same or a little slower: …
//! <!-- /fold -->
//! ```
//!
//! The marks are the same in every language, so a translation keeps them where they are. The page
//! shows the choices as a plain list (the marks never reach it) and repeats the right ones at the
//! top of the folded answer.

/// One choice of a question: its Markdown (inline) and whether it is a right answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub text: String,
    pub right: bool,
}

/// One question of a chapter's last section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    /// Its number as the text writes it (`**2.**`).
    pub number: u32,
    /// The question's Markdown, without its number.
    pub prompt: String,
    /// Its choices in order; empty for a question without them (an open question).
    pub choices: Vec<Choice>,
    /// The fold's summary ("Answer") and the folded answer's Markdown; empty if there is none.
    pub answer_label: String,
    pub answer: String,
    /// The line of the file the question starts on (1-based, counting from the start of `text`).
    pub line: usize,
}

/// `- [x] text` or `- [ ] text` (also with `*` or `+`) as a choice; anything else is not one.
pub fn choice(line: &str) -> Option<Choice> {
    let item = line.trim_start().strip_prefix(['-', '*', '+'])?.strip_prefix(' ')?;
    let (right, text) = if let Some(text) = item.strip_prefix("[x] ").or_else(|| item.strip_prefix("[X] ")) {
        (true, text)
    } else {
        (false, item.strip_prefix("[ ] ")?)
    };
    Some(Choice { text: text.trim().to_string(), right })
}

/// `**N.** rest` as (N, rest).
fn numbered(line: &str) -> Option<(u32, &str)> {
    let rest = line.strip_prefix("**")?;
    let (number, rest) = rest.split_once(".**")?;
    Some((number.parse().ok()?, rest.trim_start()))
}

/// The questions of `text` (a whole file, or a chapter's body): those of its last `## ` section.
pub fn questions(text: &str) -> Vec<Question> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().rposition(|l| l.starts_with("## ")).map_or(0, |at| at + 1);
    let mut questions: Vec<Question> = Vec::new();
    // The question whose prompt is still being read (it ends at a blank line).
    let mut in_prompt = false;
    let mut fold: Option<Vec<&str>> = None;
    for (index, &line) in lines.iter().enumerate().skip(start) {
        let trimmed = line.trim();
        if let Some(open) = &mut fold {
            if trimmed == "<!-- /fold -->" {
                let answer = open.join("\n");
                if let Some(question) = questions.last_mut().filter(|q| q.answer.is_empty()) {
                    question.answer = answer.trim().to_string();
                }
                fold = None;
            } else {
                open.push(line);
            }
            continue;
        }
        if let Some(summary) = trimmed.strip_prefix("<!-- fold:").and_then(|s| s.strip_suffix("-->")) {
            if let Some(question) = questions.last_mut().filter(|q| q.answer.is_empty()) {
                question.answer_label = summary.trim().to_string();
            }
            fold = Some(Vec::new());
            in_prompt = false;
            continue;
        }
        if let Some((number, rest)) = numbered(line) {
            questions.push(Question {
                number,
                prompt: rest.to_string(),
                choices: Vec::new(),
                answer_label: String::new(),
                answer: String::new(),
                line: index + 1,
            });
            in_prompt = true;
            continue;
        }
        if trimmed.is_empty() {
            in_prompt = false;
            continue;
        }
        let Some(question) = questions.last_mut() else { continue };
        if let Some(choice) = choice(line) {
            if question.answer.is_empty() {
                question.choices.push(choice);
            }
            in_prompt = false;
        } else if in_prompt {
            question.prompt.push('\n');
            question.prompt.push_str(line);
        }
    }
    questions
}

/// The choices a piece of Markdown ends with (its last lines that are choices, blank lines after
/// them allowed), in order; empty if it does not end with choices.
pub fn trailing_choices(markdown: &str) -> Vec<Choice> {
    let mut found: Vec<Choice> = markdown.lines().rev().skip_while(|l| l.trim().is_empty()).map_while(choice).collect();
    found.reverse();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHAPTER: &str = "## What to remember\n\n- A point.\n- [x] Not a choice: not in the last section.\n\n\
        ## Check yourself\n\n**1.** First question,\non two lines?\n\n- [ ] No\n- [x] Yes, *this*\n* [X] Also right\n\n\
        <!-- fold: Answer -->\nBecause.\n\nMore.\n<!-- /fold -->\n\n**2.** Open question?\n\n<!-- fold: Answer -->\nIt depends.\n<!-- /fold -->\n";

    #[test]
    fn the_last_section_holds_the_questions_their_choices_and_answers() {
        let found = questions(CHAPTER);
        assert_eq!(found.len(), 2, "{found:?}");
        let first = &found[0];
        assert_eq!((first.number, first.prompt.as_str(), first.line), (1, "First question,\non two lines?", 8));
        let choices: Vec<(&str, bool)> = first.choices.iter().map(|c| (c.text.as_str(), c.right)).collect();
        assert_eq!(choices, [("No", false), ("Yes, *this*", true), ("Also right", true)]);
        assert_eq!((first.answer_label.as_str(), first.answer.as_str()), ("Answer", "Because.\n\nMore."));
        assert!(found[1].choices.is_empty());
        assert_eq!(found[1].answer, "It depends.");
    }

    #[test]
    fn a_choice_is_a_list_item_marked_right_or_wrong() {
        assert_eq!(choice("- [x] Yes"), Some(Choice { text: "Yes".into(), right: true }));
        assert_eq!(choice("  + [ ] No "), Some(Choice { text: "No".into(), right: false }));
        for not in ["- Yes", "-[x] Yes", "- [y] Yes", "[x] Yes", "**1.** [x]"] {
            assert_eq!(choice(not), None, "{not}");
        }
    }

    #[test]
    fn the_choices_a_piece_ends_with() {
        assert_eq!(trailing_choices("**1.** Q?\n\n- [ ] a\n- [x] b\n\n").len(), 2);
        assert!(trailing_choices("- [ ] a\n\nThen prose.\n").is_empty());
    }
}
