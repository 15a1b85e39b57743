//! A chapter's "Check yourself" questions as a QTI 1.2 assessment in the Common Cartridge 1.1 profile
//! (`ccv1p1_qtiasiv1p2p1_v1p0.xsd`), the form both Moodle's and Canvas's cartridge importers turn
//! into a quiz.
//!
//! One `<section>` of items, as the profile requires. A question with one right choice is a
//! `cc.multiple_choice.v0p1` item, with several a `cc.multiple_response.v0p1` one, without choices a
//! `cc.essay.v0p1` one; every item's general feedback (`itemfeedback ident="general_fb"`, shown
//! whatever the reader chose) is the chapter's folded answer. What the importers read:
//! * Moodle (`backup/cc/entity11.quiz.class.php`): the items of `assessment/section`, the type from
//!   the item's `cc_profile` field, the question text from `presentation/material/mattext`, the
//!   choices from `response_lid/render_choice/response_label`, a choice's score from the
//!   `respcondition` whose `varequal` names it and sets `SCORE`, the general feedback from the
//!   `respcondition continue="Yes"` that displays it, `cc_maxattempts` (`unlimited`), and an item's
//!   `title` as the question's name.
//! * Canvas (`gems/plugins/qti_exporter`): converts the file to QTI 2.1 and reads the same parts; a
//!   feedback whose identifier contains `general_` becomes the question's neutral comment.
//!
//! Texts are HTML (`texttype="text/html"`), rendered from the chapter's Markdown by `prose`, with the
//! figures (`{{num …}}`) written for the cartridge's language.

use super::{element, empty_element, text_element, xml_error, Xml};
use prose::quiz::Question;
use quick_xml::events::{BytesDecl, Event};
use quick_xml::Writer;
use std::io::Cursor;

pub const RESOURCE_TYPE: &str = "imsqti_xmlv1p2/imscc_xmlv1p1/assessment";
const NAMESPACE: &str = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2";
const SCHEMA_LOCATION: &str = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2 \
     http://www.imsglobal.org/profile/cc/ccv1p1/ccv1p1_qtiasiv1p2p1_v1p0.xsd";
/// The identifier of every item's general feedback (Canvas reads `general_` as such).
const GENERAL_FEEDBACK: &str = "general_fb";
const RESPONSE: &str = "response1";

/// The assessment `ident` (`id`), its title, the questions' item names (`name 1`, `name 2`, …).
pub fn assessment(id: &str, title: &str, name: &str, lang: &str, questions: &[Question]) -> Result<Vec<u8>, String> {
    let mut xml = Writer::new_with_indent(Cursor::new(Vec::new()), b' ', 2);
    xml.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None))).map_err(xml_error)?;
    let attributes = [
        ("xmlns", NAMESPACE),
        ("xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance"),
        ("xsi:schemaLocation", SCHEMA_LOCATION),
    ];
    element(&mut xml, "questestinterop", &attributes, |xml| {
        element(xml, "assessment", &[("ident", id), ("title", title)], |xml| {
            metadata(
                xml,
                &[
                    ("cc_profile", "cc.exam.v0p1"),
                    ("qmd_assessmenttype", "Examination"),
                    ("qmd_scoretype", "Percentage"),
                    ("cc_maxattempts", "unlimited"),
                ],
            )?;
            element(xml, "section", &[("ident", &format!("{id}-section"))], |xml| {
                questions.iter().try_for_each(|q| item(xml, id, name, lang, q))
            })
        })
    })?;
    Ok(xml.into_inner().into_inner())
}

fn metadata(xml: &mut Xml, fields: &[(&str, &str)]) -> Result<(), String> {
    element(xml, "qtimetadata", &[], |xml| {
        fields.iter().try_for_each(|(label, entry)| {
            element(xml, "qtimetadatafield", &[], |xml| {
                text_element(xml, "fieldlabel", &[], label)?;
                text_element(xml, "fieldentry", &[], entry)
            })
        })
    })
}

fn html(xml: &mut Xml, html: &str) -> Result<(), String> {
    element(xml, "material", &[], |xml| text_element(xml, "mattext", &[("texttype", "text/html")], html))
}

fn item(xml: &mut Xml, id: &str, name: &str, lang: &str, question: &Question) -> Result<(), String> {
    let item_id = format!("{id}-q{}", question.number);
    let rights = question.choices.iter().filter(|c| c.right).count();
    let profile = match (question.choices.is_empty(), rights) {
        (true, _) => "cc.essay.v0p1",
        (false, 1) => "cc.multiple_choice.v0p1",
        (false, _) => "cc.multiple_response.v0p1",
    };
    let choice_id = |index: usize| format!("{item_id}-{}", (b'a' + index as u8) as char);
    let title = format!("{name} {}", question.number);
    element(xml, "item", &[("ident", &item_id), ("title", &title)], |xml| {
        element(xml, "itemmetadata", &[], |xml| metadata(xml, &[("cc_profile", profile)]))?;
        element(xml, "presentation", &[], |xml| {
            html(xml, &figures(lang, &prose::render_in(lang, &question.prompt)))?;
            if question.choices.is_empty() {
                return element(xml, "response_str", &[("ident", RESPONSE), ("rcardinality", "Single")], |xml| {
                    element(xml, "render_fib", &[], |xml| {
                        empty_element(xml, "response_label", &[("ident", &format!("{item_id}-answer"))])
                    })
                });
            }
            let cardinality = if rights == 1 { "Single" } else { "Multiple" };
            element(xml, "response_lid", &[("ident", RESPONSE), ("rcardinality", cardinality)], |xml| {
                element(xml, "render_choice", &[], |xml| {
                    question.choices.iter().enumerate().try_for_each(|(index, choice)| {
                        element(xml, "response_label", &[("ident", &choice_id(index))], |xml| {
                            html(xml, &figures(lang, &prose::render_inline(lang, &choice.text)))
                        })
                    })
                })
            })
        })?;
        element(xml, "resprocessing", &[], |xml| {
            element(xml, "outcomes", &[], |xml| {
                let attributes = [("varname", "SCORE"), ("vartype", "Decimal"), ("minvalue", "0"), ("maxvalue", "100")];
                empty_element(xml, "decvar", &attributes)
            })?;
            element(xml, "respcondition", &[("continue", "Yes")], |xml| {
                element(xml, "conditionvar", &[], |xml| empty_element(xml, "other", &[]))?;
                empty_element(xml, "displayfeedback", &[("feedbacktype", "Response"), ("linkrefid", GENERAL_FEEDBACK)])
            })?;
            if question.choices.is_empty() {
                return Ok(());
            }
            element(xml, "respcondition", &[("continue", "No")], |xml| {
                element(xml, "conditionvar", &[], |xml| {
                    let equal = |xml: &mut Xml, index: usize| {
                        text_element(xml, "varequal", &[("respident", RESPONSE), ("case", "Yes")], &choice_id(index))
                    };
                    if rights == 1 {
                        let right = question.choices.iter().position(|c| c.right).expect("one right choice");
                        return equal(xml, right);
                    }
                    // Several right: all of them and none of the others.
                    element(xml, "and", &[], |xml| {
                        question.choices.iter().enumerate().try_for_each(|(index, choice)| {
                            if choice.right {
                                equal(xml, index)
                            } else {
                                element(xml, "not", &[], |xml| equal(xml, index))
                            }
                        })
                    })
                })?;
                text_element(xml, "setvar", &[("varname", "SCORE"), ("action", "Set")], "100")
            })
        })?;
        element(xml, "itemfeedback", &[("ident", GENERAL_FEEDBACK)], |xml| {
            element(xml, "flow_mat", &[], |xml| html(xml, &figures(lang, &prose::render_in(lang, &question.answer))))
        })
    })
}

/// `html` with each figure the Markdown marks `{{num X}}` (X spelt the English way: `5,720,764`,
/// `1.5`) written as the language writes it, as the site does in the reader's browser with
/// `Intl.NumberFormat`: Russian groups thousands with a no-break space and uses a decimal comma,
/// Hindi groups lakhs and crores (`57,20,764`), the others write it as English does.
pub fn figures(lang: &str, html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find("{{num ") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "{{num ".len()..];
        let Some(end) = after.find("}}") else { break };
        out.push_str(&figure(lang, after[..end].trim()));
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    out
}

fn figure(lang: &str, spelled: &str) -> String {
    let plain = spelled.replace(',', "");
    let (whole, fraction) = plain.split_once('.').map_or((plain.as_str(), None), |(w, f)| (w, Some(f)));
    if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) {
        return spelled.to_string();
    }
    let (separator, decimal_point) = match lang {
        "ru" => ('\u{a0}', ','),
        _ => (',', '.'),
    };
    // Digit groups from the right: three, then threes (or, in Hindi, twos).
    let digits: Vec<char> = whole.chars().collect();
    let mut groups: Vec<String> = Vec::new();
    let mut end = digits.len();
    let mut size = 3;
    while end > 0 {
        let start = end.saturating_sub(size);
        groups.push(digits[start..end].iter().collect());
        end = start;
        if lang == "hi" {
            size = 2;
        }
    }
    groups.reverse();
    let grouped = groups.join(&separator.to_string());
    match fraction {
        Some(fraction) => format!("{grouped}{decimal_point}{fraction}"),
        None => grouped,
    }
}
