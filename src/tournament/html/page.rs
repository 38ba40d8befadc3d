//! The report's HTML: one page with its style sheet (`report.css`), its plots (inline SVG) and
//! its script (`report.js`, the board viewer) inlined, the games as JSON in a
//! `<script type="application/json" id="report-data">` element. Numbers a program may want are
//! also in `data-` attributes of the standings rows (`data-engine`, `data-games`,
//! `data-wins`, `data-losses`, `data-draws`, `data-points`, `data-score`) and of the SPRT
//! section (`data-llr`, `data-lower`, `data-upper`).

use std::fmt::Write as _;

use serde_json::json;

use crate::tournament::report::{elo_text, error_text};
use crate::tournament::stats::{Estimate, Verdict};

use super::summary::{Scored, Summary, summarize};
use super::{Meta, Played, ReportError, Status, plot};

const CSS: &str = include_str!("report.css");
const SCRIPT: &str = include_str!("report.js");

/// Text for HTML (element content and attribute values).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON that can stand inside a `<script>` element: no `</` or `<!--` in it.
fn script_json(value: &serde_json::Value) -> String {
    value
        .to_string()
        .replace("</", "<\\/")
        .replace("<!--", "<\\u0021--")
}

/// Half points as `2.5`.
fn points(half: u64) -> String {
    if half.is_multiple_of(2) {
        format!("{}", half / 2)
    } else {
        format!("{}.5", half / 2)
    }
}

/// `+12.3 ± 45.6` (`n/a` where there is no error bar).
fn elo_pm(e: &Estimate) -> String {
    format!("{} ± {}", elo_text(e.elo), error_text(e.error))
}

fn status_text(status: &Status, played: u64) -> String {
    match status {
        Status::Running(n) => format!("in progress: {played} of {n} games played"),
        Status::Finished(n) => format!("finished: {played} of {n} games played"),
        Status::Interrupted(n) => {
            format!("interrupted (Ctrl-C) after {played} of {n} games")
        }
        Status::FromPgn(path) => format!("{played} games read from {path}"),
    }
}

fn standings(s: &Summary, out: &mut String) {
    out.push_str(
        "<table class=\"standings\">\n<thead><tr><th>Engine</th><th>Games</th><th>Wins</th>\
         <th>Losses</th><th>Draws</th><th>Points</th><th>Score</th><th>Elo (95 %)</th>\
         <th>LOS</th></tr></thead>\n<tbody>\n",
    );
    for st in &s.standings {
        let w = st.wld;
        let score = 100.0 * w.score();
        let _ = writeln!(
            out,
            "<tr class=\"standing\" data-engine=\"{name}\" data-games=\"{g}\" data-wins=\"{wi}\" \
             data-losses=\"{l}\" data-draws=\"{d}\" data-points=\"{p}\" data-score=\"{score:.1}\">\
             <td>{name}</td><td>{g}</td><td>{wi}</td><td>{l}</td><td>{d}</td><td>{p}</td>\
             <td>{score:.1} %</td><td>{elo}</td><td>{los:.1} %</td></tr>",
            name = escape(&st.name),
            g = w.games(),
            wi = w.wins,
            l = w.losses,
            d = w.draws,
            p = points(st.half_points()),
            elo = escape(&elo_pm(&st.elo())),
            los = 100.0 * w.los(),
        );
    }
    out.push_str("</tbody>\n</table>\n");
    let kinds: Vec<String> = s
        .terminations
        .iter()
        .map(|(k, n)| format!("{} {n}", escape(k)))
        .collect();
    let _ = writeln!(
        out,
        "<p class=\"terminations\">Terminations: {}{}</p>",
        if kinds.is_empty() {
            "none".to_string()
        } else {
            kinds.join(", ")
        },
        if s.unfinished > 0 {
            format!(
                "; {} unfinished game{} (result *) not counted",
                s.unfinished,
                if s.unfinished == 1 { "" } else { "s" }
            )
        } else {
            String::new()
        }
    );
}

/// `s` with a tournament's standings (more than two engines) ranked by points, then by fewer
/// games, as cutechess ranks them; a match keeps its engines' order.
fn ranked(s: &Summary) -> Summary {
    let mut r = s.clone();
    if r.standings.len() > 2 {
        r.standings.sort_by(|a, b| {
            b.half_points()
                .cmp(&a.half_points())
                .then(a.wld.games().cmp(&b.wld.games()))
        });
    }
    r
}

/// The half points and games of `row` against `col` in `games`.
fn head_to_head(games: &[Scored], row: &str, col: &str) -> (u64, u64) {
    let mut half = 0;
    let mut played = 0;
    for g in games {
        let half_points = match (g.white == row, g.black == row, g.result.as_str()) {
            (true, false, "1-0") | (false, true, "0-1") => 2,
            (true, false, "0-1") | (false, true, "1-0") => 0,
            (_, _, "1/2-1/2") => 1,
            _ => continue,
        };
        if (g.white == row && g.black == col) || (g.black == row && g.white == col) {
            half += half_points;
            played += 1;
        }
    }
    (half, played)
}

/// A tournament's cross table: each engine's points out of games against each other, in the
/// standings' order (a cell `data-row`, `data-col`, `data-points`, `data-games`).
fn crosstable(s: &Summary, games: &[Scored], out: &mut String) {
    out.push_str(
        "<section id=\"crosstable\">\n<h2>Head to head</h2>\n<table class=\"standings\">\n\
         <thead><tr><th>Engine</th>",
    );
    for (k, st) in s.standings.iter().enumerate() {
        let _ = write!(out, "<th title=\"{}\">{}</th>", escape(&st.name), k + 1);
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for (k, row) in s.standings.iter().enumerate() {
        let _ = write!(out, "<tr><td>{}. {}</td>", k + 1, escape(&row.name));
        for col in &s.standings {
            let (half, played) = head_to_head(games, &row.name, &col.name);
            if row.name == col.name || played == 0 {
                out.push_str("<td>—</td>");
                continue;
            }
            let _ = write!(
                out,
                "<td data-row=\"{r}\" data-col=\"{c}\" data-points=\"{p}\" \
                 data-games=\"{played}\">{p} / {played}</td>",
                r = escape(&row.name),
                c = escape(&col.name),
                p = points(half),
            );
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n</section>\n");
}

fn elo_section(s: &Summary, out: &mut String) -> Result<(), ReportError> {
    out.push_str("<section id=\"elo\">\n<h2>Elo</h2>\n");
    let Some(first) = s.standings.first() else {
        out.push_str("<p>No games yet.</p>\n</section>\n");
        return Ok(());
    };
    let e = first.elo();
    let _ = writeln!(
        out,
        "<p id=\"elo-games\">{} over {} games: <b>{}</b> Elo (95 %), LOS {:.1} %, draw ratio \
         {:.1} %.</p>",
        escape(&first.name),
        first.wld.games(),
        escape(&elo_pm(&e)),
        100.0 * first.wld.los(),
        if first.wld.games() > 0 {
            100.0 * first.wld.draws as f64 / first.wld.games() as f64
        } else {
            0.0
        }
    );
    match &s.penta {
        Some(p) => {
            let pe = p.elo();
            let c = p.0;
            let _ = writeln!(
                out,
                "<p id=\"elo-pairs\" data-ptnml=\"{},{},{},{},{}\">Pentanomial over {} \
                 colour-swapped pairs: [{}, {}, {}, {}, {}] (pair scores 0, ½, 1, 1½, 2), pair \
                 Elo <b>{}</b> (95 %), LOS {:.1} %.</p>",
                c[0],
                c[1],
                c[2],
                c[3],
                c[4],
                p.pairs(),
                c[0],
                c[1],
                c[2],
                c[3],
                c[4],
                escape(&elo_pm(&pe)),
                100.0 * pe.los
            );
        }
        None => out.push_str(
            "<p id=\"elo-pairs\">No pair Elo: the games did not come in colour-swapped pairs \
             of two engines.</p>\n",
        ),
    }
    out.push_str("<div class=\"plot\">");
    out.push_str(&plot::elo_svg(&s.series, &first.name)?);
    out.push_str("</div>\n</section>\n");
    Ok(())
}

fn sprt_section(s: &Summary, out: &mut String) -> Result<(), ReportError> {
    let Some(sprt) = s.sprt else { return Ok(()) };
    let (lo, hi) = sprt.bounds();
    let llr = s.series.last().map_or(0.0, |p| p.llr);
    let verdict = match s.verdict {
        Verdict::Continue => "no decision yet",
        Verdict::H0 => "H0 accepted: the difference is at most elo0",
        Verdict::H1 => "H1 accepted: the difference is at least elo1",
    };
    let _ = writeln!(
        out,
        "<section id=\"sprt\" data-llr=\"{llr:.3}\" data-lower=\"{lo:.3}\" data-upper=\"{hi:.3}\">\n\
         <h2>SPRT</h2>\n<p>elo0 = {}, elo1 = {}, alpha = {}, beta = {}: LLR <b>{llr:.3}</b> \
         ({:.1} % of the way to the upper bound), bounds [{lo:.3}, {hi:.3}]: <b>{verdict}</b>.</p>",
        sprt.elo0,
        sprt.elo1,
        sprt.alpha,
        sprt.beta,
        100.0 * llr / hi,
    );
    if s.penta.is_none() {
        out.push_str(
            "<p>The SPRT needs colour-swapped pairs of two engines; these games are not.</p>\n",
        );
    }
    out.push_str("<div class=\"plot\">");
    out.push_str(&plot::llr_svg(&s.series, (lo, hi))?);
    out.push_str("</div>\n</section>\n");
    Ok(())
}

/// The whole page.
pub fn render(
    meta: &Meta,
    names: &[String],
    sprt: Option<crate::tournament::stats::Sprt>,
    games: &[Played],
    status: &Status,
) -> Result<String, ReportError> {
    let scored: Vec<_> = games.iter().map(|g| g.scored.clone()).collect();
    let s = summarize(names, &scored, sprt);
    let title = match s.standings.as_slice() {
        [a, b] => format!("{} vs {}", a.name, b.name),
        [] => "no games".to_string(),
        many => format!("{} engines", many.len()),
    };
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"kiebitz-match {}\">\n\
         <title>{} — kiebitz-match report</title>\n<style>\n{CSS}</style>\n</head>\n<body>\n\
         <header>\n<h1>{}</h1>\n<p class=\"meta\">{} · {} ({}){} · {}</p>\n\
         <p class=\"status\" data-status=\"{}\">{}</p>\n</header>\n",
        env!("CARGO_PKG_VERSION"),
        escape(&title),
        escape(&title),
        escape(&meta.event),
        escape(meta.game),
        escape(&meta.variant),
        meta.time_control
            .as_ref()
            .map(|t| format!(" · {}", escape(t)))
            .unwrap_or_default(),
        escape(&meta.date),
        match status {
            Status::Running(_) => "running",
            Status::Finished(_) => "finished",
            Status::Interrupted(_) => "interrupted",
            Status::FromPgn(_) => "pgn",
        },
        escape(&status_text(status, s.counted)),
    );
    out.push_str("<section id=\"standings\">\n<h2>Standings</h2>\n");
    let ranked = ranked(&s);
    standings(&ranked, &mut out);
    out.push_str("</section>\n");
    if s.standings.len() > 2 {
        crosstable(&ranked, &scored, &mut out);
    }
    elo_section(&s, &mut out)?;
    sprt_section(&s, &mut out)?;
    out.push_str(
        "<section id=\"games\">\n<h2>Games</h2>\n\
         <noscript><p>The game viewer needs JavaScript; every game's PGN is in this file's \
         report-data element.</p></noscript>\n\
         <div id=\"viewer\" hidden>\n<div class=\"board-side\"><div id=\"board\"></div>\n\
         <div class=\"controls\"><button id=\"first\" title=\"start (Home)\">|◀</button>\
         <button id=\"prev\" title=\"back (←)\">◀</button>\
         <button id=\"next\" title=\"forward (→)\">▶</button>\
         <button id=\"last\" title=\"end (End)\">▶|</button></div>\n\
         <p id=\"fen\"></p></div>\n<div class=\"moves-side\"><h3 id=\"game-title\"></h3>\n\
         <p id=\"game-result\"></p>\n<div id=\"moves\"></div>\n\
         <details><summary>PGN</summary><pre id=\"pgn\"></pre></details>\n\
         <p><button id=\"download\">Download all games (PGN)</button></p></div>\n</div>\n\
         <table id=\"game-list\">\n<thead><tr><th>#</th><th>White</th><th>Black</th>\
         <th>Result</th><th>Termination</th><th>Plies</th></tr></thead>\n\
         <tbody id=\"game-list-body\"></tbody>\n</table>\n</section>\n",
    );
    let data = json!({
        "game": meta.game,
        "variant": meta.variant,
        "games": games.iter().map(|g| json!({
            "number": g.scored.number,
            "white": g.scored.white,
            "black": g.scored.black,
            "result": g.scored.result,
            "termination": g.scored.termination,
            "reason": g.reason,
            "moves": g.sans,
            "fens": g.fens,
            "error": g.error,
            "pgn": g.pgn,
        })).collect::<Vec<_>>(),
    });
    let _ = write!(
        out,
        "<script type=\"application/json\" id=\"report-data\">{}</script>\n<script>\n{}</script>\n<script>\n{SCRIPT}</script>\n\
         <footer>Made by kiebitz-match {} on {}. Self-contained: nothing is fetched.</footer>\n\
         </body>\n</html>\n",
        script_json(&data),
        super::pieces::script(),
        env!("CARGO_PKG_VERSION"),
        escape(&crate::tournament::pgn::today()),
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::html::summary::Scored;

    fn game(number: usize, white: &str, black: &str, result: &str, moves: &[&str]) -> Played {
        Played {
            scored: Scored {
                number,
                white: white.into(),
                black: black.into(),
                result: result.into(),
                termination: "normal".into(),
            },
            reason: None,
            sans: moves.iter().map(|m| m.to_string()).collect(),
            fens: vec!["ppp/3/PPP w - - 0 1".into()],
            error: None,
            pgn: "[Event \"</script><!-- x\"]\n\n1. a2 1-0\n".into(),
        }
    }

    fn meta() -> Meta {
        Meta {
            event: "E <&>".into(),
            game: "pawns",
            variant: "pawns3".into(),
            time_control: None,
            date: "2026.01.01".into(),
        }
    }

    #[test]
    fn page_holds_standings_plots_and_games() {
        let games = [
            game(1, "A", "B<", "1-0", &["a2", "bxa2"]),
            game(2, "B<", "A", "1/2-1/2", &["c2"]),
        ];
        let sprt = crate::tournament::stats::Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let html = render(&meta(), &[], Some(sprt), &games, &Status::Finished(2)).unwrap();
        assert!(html.contains("data-engine=\"A\" data-games=\"2\" data-wins=\"1\" data-losses=\"0\" data-draws=\"1\" data-points=\"1.5\" data-score=\"75.0\""), "{html}");
        assert!(
            html.contains(
                "data-engine=\"B&lt;\" data-games=\"2\" data-wins=\"0\" data-losses=\"1\""
            )
        );
        assert!(html.contains("E &lt;&amp;&gt;"));
        assert!(html.contains("data-ptnml=\"0,0,0,1,0\""));
        assert!(html.contains("<section id=\"sprt\""));
        assert_eq!(html.matches("<svg").count(), 2);
        // The embedded data cannot end its script element early.
        let start = html.find("id=\"report-data\">").unwrap();
        let end = start + html[start..].find("</script>").unwrap();
        let data: serde_json::Value =
            serde_json::from_str(&html[start + "id=\"report-data\">".len()..end]).unwrap();
        assert_eq!(data["games"][0]["moves"], json!(["a2", "bxa2"]));
        assert!(
            data["games"][1]["pgn"]
                .as_str()
                .unwrap()
                .contains("</script><!--")
        );
        // Without --sprt there is no SPRT section.
        let html = render(&meta(), &[], None, &games, &Status::Running(4)).unwrap();
        assert!(!html.contains("id=\"sprt\""));
        assert!(html.contains("in progress: 2 of 4 games played"));
    }
}
