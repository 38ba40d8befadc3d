//! The report's two plots as SVG text, drawn with `plotters` (its SVG backend, no fonts or
//! bitmaps): the first engine's Elo over the games with its 95 % band, and the SPRT's
//! log-likelihood ratio over the games against its two bounds. Long matches are thinned to at
//! most [`MAX_POINTS`] points (the last one always kept), so the SVG stays small.

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use super::ReportError;
use super::summary::Point;

/// The most points a plot draws.
pub const MAX_POINTS: usize = 600;

/// Elo beyond this is drawn at the edge (a 100 % score has an infinite Elo).
const ELO_CAP: f64 = 800.0;

const SIZE: (u32, u32) = (720, 300);

fn thin(points: &[Point]) -> Vec<Point> {
    let step = points.len().div_ceil(MAX_POINTS).max(1);
    let mut out: Vec<Point> = points.iter().step_by(step).copied().collect();
    if let (Some(last), Some(kept)) = (points.last(), out.last())
        && last.games != kept.games
    {
        out.push(*last);
    }
    out
}

fn cap(elo: f64) -> f64 {
    elo.clamp(-ELO_CAP, ELO_CAP)
}

/// A y range around `values` with some room, never empty.
fn range(values: impl Iterator<Item = f64>, at_least: (f64, f64)) -> (f64, f64) {
    let (mut lo, mut hi) = at_least;
    for v in values.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    let pad = ((hi - lo) * 0.08).max(1e-6);
    (lo - pad, hi + pad)
}

fn err<E: std::fmt::Display>(e: E) -> ReportError {
    ReportError::plot(e)
}

/// A chart with games along x (0 to `last`) and `y_desc` from `lo` to `hi`.
type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// One plot as SVG text: the frame (caption, axes, light grid) around what `draw` adds.
fn plot(
    caption: &str,
    y_desc: &str,
    last: f64,
    (lo, hi): (f64, f64),
    draw: impl FnOnce(&mut Chart<'_, '_>) -> Result<(), ReportError>,
) -> Result<String, ReportError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(caption, ("sans-serif", 16))
            .margin(12)
            .x_label_area_size(32)
            .y_label_area_size(56)
            .build_cartesian_2d(0f64..last, lo..hi)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("games")
            .y_desc(y_desc)
            .light_line_style(RGBColor(235, 235, 235))
            .draw()
            .map_err(err)?;
        draw(&mut chart)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// The first engine's Elo (and its 95 % band where it exists) after each game.
pub fn elo_svg(points: &[Point], first: &str) -> Result<String, ReportError> {
    let points = thin(points);
    let last = points.last().map_or(1, |p| p.games).max(1) as f64;
    let band = |p: &Point| -> Option<(f64, f64)> {
        (p.elo.elo.is_finite() && p.elo.error.is_finite())
            .then(|| (cap(p.elo.elo - p.elo.error), cap(p.elo.elo + p.elo.error)))
    };
    let (lo, hi) = range(
        points
            .iter()
            .flat_map(|p| {
                let (l, h) = band(p).unwrap_or((cap(p.elo.elo), cap(p.elo.elo)));
                [l, h]
            })
            .chain([cap(0.0)]),
        (-50.0, 50.0),
    );
    let caption = format!("Elo of {first} (95 % band)");
    plot(&caption, "Elo", last, (lo, hi), |chart| {
        // The band as one polygon: the upper edge forward, the lower edge back.
        let with_band: Vec<(f64, (f64, f64))> = points
            .iter()
            .filter_map(|p| band(p).map(|b| (p.games as f64, b)))
            .collect();
        if with_band.len() >= 2 {
            let mut outline: Vec<(f64, f64)> =
                with_band.iter().map(|(x, (_, h))| (*x, *h)).collect();
            outline.extend(with_band.iter().rev().map(|(x, (l, _))| (*x, *l)));
            chart
                .draw_series(std::iter::once(Polygon::new(
                    outline,
                    RGBColor(70, 110, 200).mix(0.18).filled(),
                )))
                .map_err(err)?;
        }
        chart
            .draw_series(LineSeries::new(
                [(0.0, 0.0), (last, 0.0)],
                RGBColor(120, 120, 120).stroke_width(1),
            ))
            .map_err(err)?;
        chart
            .draw_series(LineSeries::new(
                points.iter().map(|p| (p.games as f64, cap(p.elo.elo))),
                RGBColor(40, 80, 180).stroke_width(2),
            ))
            .map_err(err)?;
        Ok(())
    })
}

/// The SPRT's log-likelihood ratio after each game, with its lower and upper bounds.
pub fn llr_svg(points: &[Point], bounds: (f64, f64)) -> Result<String, ReportError> {
    let points = thin(points);
    let last = points.last().map_or(1, |p| p.games).max(1) as f64;
    let (lo, hi) = range(
        points.iter().map(|p| p.llr),
        (bounds.0.min(0.0), bounds.1.max(0.0)),
    );
    plot(
        "SPRT log-likelihood ratio",
        "LLR",
        last,
        (lo, hi),
        |chart| {
            for (y, colour) in [
                (bounds.1, RGBColor(30, 140, 60)),
                (bounds.0, RGBColor(190, 50, 40)),
            ] {
                chart
                    .draw_series(LineSeries::new(
                        [(0.0, y), (last, y)],
                        colour.stroke_width(2),
                    ))
                    .map_err(err)?;
            }
            chart
                .draw_series(LineSeries::new(
                    std::iter::once((0.0, 0.0))
                        .chain(points.iter().map(|p| (p.games as f64, p.llr))),
                    RGBColor(40, 80, 180).stroke_width(2),
                ))
                .map_err(err)?;
            Ok(())
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::stats::Wld;

    fn points(n: u64) -> Vec<Point> {
        (1..=n)
            .map(|g| Point {
                games: g,
                elo: Wld {
                    wins: g / 2 + 1,
                    losses: g / 3,
                    draws: g / 4,
                }
                .elo(),
                llr: g as f64 * 0.01,
            })
            .collect()
    }

    #[test]
    fn plots_are_svg_and_thinned() {
        let svg = elo_svg(&points(5000), "A").unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..40]);
        assert!(svg.contains("Elo of A"));
        assert!(svg.len() < 200_000, "{} bytes", svg.len());
        let svg = llr_svg(&points(10), (-2.94, 2.94)).unwrap();
        assert!(svg.contains("<polyline") || svg.contains("<path"), "{svg}");
        assert_eq!(thin(&points(1001)).last().unwrap().games, 1001);
        assert!(thin(&points(1001)).len() <= MAX_POINTS + 1);
        // No games at all still draws an empty plot.
        assert!(elo_svg(&[], "A").unwrap().contains("<svg"));
    }
}
