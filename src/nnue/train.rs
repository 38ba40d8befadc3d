//! The trainer: a float network of the same shape as [`Network`], fitted to training records
//! by Adam on mini-batches, on as many threads as asked.
//!
//! Each record's target blends the search's verdict and the game's: `(1 − λ)·σ(score/400) +
//! λ·result`, both for the side to move; the prediction is `σ(output)` (the output is in
//! units of 400 centipawns, as [`super::net::SCALE`] reads it), the loss the squared error.
//! The last fraction of the records (whole games) is held out and its loss reported after
//! every epoch; the rest is shuffled by the seed. Weights are kept within ±[`CLIP`] so that the quantised accumulators cannot
//! overflow. [`FloatNet::quantise`] makes the engine's network.

use super::Layout;
use super::data::Record;
use super::net::{Network, QA, QB};
use crate::rng::Rng;

/// Every weight stays within ±CLIP (33 inputs · 1.98 · 255 < 32 767).
pub const CLIP: f32 = 1.98;

/// What a training run does.
#[derive(Clone, Debug)]
pub struct Config {
    pub hidden: usize,
    pub epochs: u32,
    pub batch: usize,
    /// Adam's step size at the start …
    pub lr: f32,
    /// … multiplied by `lr_drop` after every `lr_step` epochs.
    pub lr_drop: f32,
    pub lr_step: u32,
    /// λ: the weight of the game's result in the target (0: the score alone).
    pub wdl: f32,
    pub seed: u64,
    pub threads: usize,
    /// The share of the records held out for validation.
    pub validation: f64,
    /// Each epoch, show every training record mirrored left to right with probability ½ (the
    /// inputs know no castling rights, so a position and its mirror image are worth the same).
    pub mirror: bool,
    /// Start from this network (a warm start: fine-tuning on new data) instead of random
    /// weights; its inputs and hidden size are the run's.
    pub init: Option<FloatNet>,
}

/// A float network: the trainer's model.
#[derive(Clone, Debug)]
pub struct FloatNet {
    pub inputs: usize,
    pub hidden: usize,
    pub ft_weights: Vec<f32>,
    pub ft_bias: Vec<f32>,
    pub out_weights: Vec<f32>,
    pub out_bias: f32,
}

/// A record's active inputs from White's and from Black's perspective, and the side to move.
pub struct Inputs {
    pub white: Vec<usize>,
    pub black: Vec<usize>,
    pub side: usize,
}

impl Inputs {
    pub fn of(record: &Record, layout: &Layout) -> Inputs {
        Inputs::of_view(record, layout, false)
    }

    /// The inputs of `record`, or of its mirror image (files reversed) when `mirror`.
    pub fn of_view(record: &Record, layout: &Layout, mirror: bool) -> Inputs {
        let mut white = Vec::with_capacity(32);
        let mut black = Vec::with_capacity(32);
        for (sq, code) in record.squares() {
            let sq = if mirror {
                layout.mirror_file(sq as usize) as u8
            } else {
                sq
            };
            white.push(layout.index(0, sq as usize, code as usize));
            black.push(layout.index(1, sq as usize, code as usize));
        }
        Inputs {
            white,
            black,
            side: record.side as usize,
        }
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The activation: `clamp(x, 0, 1)²`.
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

impl FloatNet {
    /// Small random weights from `seed`.
    pub fn new(inputs: usize, hidden: usize, seed: u64) -> FloatNet {
        let mut rng = Rng::new(seed);
        let mut uniform = |n: usize, r: f64| -> Vec<f32> {
            (0..n)
                .map(|_| ((rng.unit() * 2.0 - 1.0) * r) as f32)
                .collect()
        };
        FloatNet {
            inputs,
            hidden,
            ft_weights: uniform(inputs * hidden, 0.1),
            ft_bias: vec![0.05; hidden],
            out_weights: uniform(2 * hidden, 1.0 / (2.0 * hidden as f64).sqrt()),
            out_bias: 0.0,
        }
    }

    /// The float network a quantised one stands for (its weights divided by the scales):
    /// [`FloatNet::quantise`] gives `q` back exactly.
    pub fn from_network(q: &Network) -> FloatNet {
        let f = |v: &[i16], s: i32| v.iter().map(|&x| x as f32 / s as f32).collect();
        FloatNet {
            inputs: q.inputs,
            hidden: q.hidden,
            ft_weights: f(&q.ft_weights, QA),
            ft_bias: f(&q.ft_bias, QA),
            out_weights: f(&q.out_weights, QB),
            out_bias: q.out_bias as f32 / (QA * QB) as f32,
        }
    }

    /// The accumulator of `active`: bias plus columns.
    fn accumulate(&self, active: &[usize], acc: &mut [f32]) {
        acc.copy_from_slice(&self.ft_bias);
        for &i in active {
            let col = &self.ft_weights[i * self.hidden..(i + 1) * self.hidden];
            acc.iter_mut().zip(col).for_each(|(a, w)| *a += w);
        }
    }

    /// The output (in units of 400 centipawns) for the side to move.
    pub fn forward(&self, inputs: &Inputs) -> f32 {
        let h = self.hidden;
        let (mut us, mut them) = (vec![0.0; h], vec![0.0; h]);
        let (own, other) = perspectives(inputs);
        self.accumulate(own, &mut us);
        self.accumulate(other, &mut them);
        self.output(&us, &them)
    }

    /// The output from the side to move's and the other side's accumulators.
    fn output(&self, us: &[f32], them: &[f32]) -> f32 {
        let h = self.hidden;
        let half = |acc: &[f32], w: &[f32]| -> f32 {
            acc.iter().zip(w).map(|(&a, w)| screlu(a) * w).sum()
        };
        self.out_bias + half(us, &self.out_weights[..h]) + half(them, &self.out_weights[h..])
    }

    /// The engine's network: weights rounded at the quantisation scales.
    pub fn quantise(&self) -> Network {
        let q = |v: &[f32], s: i32| -> Vec<i16> {
            v.iter()
                .map(|&x| (x * s as f32).round().clamp(-32767.0, 32767.0) as i16)
                .collect()
        };
        Network {
            game: String::new(),
            inputs: self.inputs,
            hidden: self.hidden,
            ft_weights: q(&self.ft_weights, QA),
            ft_bias: q(&self.ft_bias, QA),
            out_weights: q(&self.out_weights, QB),
            out_bias: (self.out_bias * (QA * QB) as f32).round() as i32,
        }
    }

    fn params_len(&self) -> usize {
        self.ft_weights.len() + self.ft_bias.len() + self.out_weights.len() + 1
    }

    /// Every parameter, mutably, in one order (for the optimiser).
    fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.ft_weights
            .iter_mut()
            .chain(self.ft_bias.iter_mut())
            .chain(self.out_weights.iter_mut())
            .chain(std::iter::once(&mut self.out_bias))
    }
}

/// The side to move's inputs, then the other side's.
fn perspectives(inputs: &Inputs) -> (&[usize], &[usize]) {
    if inputs.side == 0 {
        (&inputs.white, &inputs.black)
    } else {
        (&inputs.black, &inputs.white)
    }
}

/// The target of a record for the side to move: blended score and result.
pub fn target(record: &Record, wdl: f32) -> f32 {
    let white_score = record.score as f32 / 400.0;
    let (score, result) = if record.side == 0 {
        (white_score, record.white_result())
    } else {
        (-white_score, 1.0 - record.white_result())
    };
    (1.0 - wdl) * sigmoid(score) + wdl * result
}

/// Gradients of one thread's share of a batch, in [`FloatNet::params_mut`]'s order.
struct Grad {
    g: Vec<f32>,
    loss: f64,
}

/// Adds the gradient of one record to `grad`; returns its loss.
fn backprop(
    net: &FloatNet,
    inputs: &Inputs,
    target: f32,
    grad: &mut [f32],
    scratch: &mut [Vec<f32>; 3],
) -> f32 {
    let h = net.hidden;
    let (own, other) = perspectives(inputs);
    let [us, them, dacc] = scratch;
    net.accumulate(own, us);
    net.accumulate(other, them);
    let out = net.output(us, them);
    let p = sigmoid(out);
    let err = p - target;
    let g = 2.0 * err * p * (1.0 - p);
    let (ft_len, out_at) = (net.ft_weights.len(), net.ft_weights.len() + h);
    let bias_at = out_at + 2 * h;
    grad[bias_at] += g;
    for (side, (acc, active)) in [(&*us, own), (&*them, other)].into_iter().enumerate() {
        let w = &net.out_weights[side * h..(side + 1) * h];
        let gw = &mut grad[out_at + side * h..out_at + (side + 1) * h];
        // d(out)/d(acc_i) = w_i · 2·acc_i where 0 < acc_i < 1.
        for i in 0..h {
            let a = acc[i];
            gw[i] += g * screlu(a);
            dacc[i] = if a > 0.0 && a < 1.0 {
                g * w[i] * 2.0 * a
            } else {
                0.0
            };
        }
        grad[ft_len..ft_len + h]
            .iter_mut()
            .zip(dacc.iter())
            .for_each(|(b, d)| *b += d);
        for &f in active {
            let col = &mut grad[f * h..(f + 1) * h];
            col.iter_mut().zip(dacc.iter()).for_each(|(c, d)| *c += d);
        }
    }
    err * err
}

/// One epoch's figures.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    pub epoch: u32,
    pub train_loss: f64,
    pub validation_loss: f64,
    pub positions_per_second: f64,
    pub lr: f32,
}

/// Adam's moments.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn step(&mut self, net: &mut FloatNet, grad: &[f32], lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        for (((p, &g), m), v) in net.params_mut().zip(grad).zip(&mut self.m).zip(&mut self.v) {
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *p -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
            *p = p.clamp(-CLIP, CLIP);
        }
    }
}

/// The mean loss of `net` on `records` (a target per record).
pub fn loss(net: &FloatNet, records: &[Record], layout: &Layout, wdl: f32) -> f64 {
    let sum: f64 = records
        .iter()
        .map(|r| {
            let d = sigmoid(net.forward(&Inputs::of(r, layout))) - target(r, wdl);
            (d * d) as f64
        })
        .sum();
    sum / records.len().max(1) as f64
}

/// The records split into a training set, shuffled by `seed`, and a validation set: the last
/// `validation` share of the records in their order. datagen writes whole games one after
/// the other, so the validation games are games the network never saw — a random split would
/// hold out neighbours of training positions from the same games and measure memory.
pub fn split(records: &[Record], seed: u64, validation: f64) -> (Vec<Record>, Vec<Record>) {
    let held = ((records.len() as f64 * validation).round() as usize).min(records.len());
    let (train, held_out) = records.split_at(records.len() - held);
    let mut train = train.to_vec();
    shuffle(&mut train, &mut Rng::new(seed));
    (train, held_out.to_vec())
}

fn shuffle<T>(v: &mut [T], rng: &mut Rng) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i + 1));
    }
}

/// Trains a network on `records`; `on_epoch` hears each epoch's figures. An error where the
/// losses stop being numbers (a step size too large diverges to infinities and NaNs): the
/// network is then worth nothing, and `on_epoch` has not heard that epoch.
pub fn train(
    records: &[Record],
    layout: &Layout,
    cfg: &Config,
    mut on_epoch: impl FnMut(&EpochReport, &FloatNet),
) -> Result<FloatNet, super::NetError> {
    let (mut train, validation) = split(records, cfg.seed, cfg.validation);
    let mut net = match &cfg.init {
        Some(init) => init.clone(),
        None => FloatNet::new(layout.inputs(), cfg.hidden, cfg.seed),
    };
    let n = net.params_len();
    let mut adam = Adam {
        m: vec![0.0; n],
        v: vec![0.0; n],
        t: 0,
    };
    let mut rng = Rng::new(cfg.seed ^ 0x5EED);
    let mut lr = cfg.lr;
    for epoch in 1..=cfg.epochs {
        shuffle(&mut train, &mut rng);
        let flips = mirror_choices(train.len(), cfg.mirror, &mut rng);
        let start = std::time::Instant::now();
        let mut total = 0.0;
        let size = cfg.batch.max(1);
        for (batch, flips) in train.chunks(size).zip(flips.chunks(size)) {
            let grads = batch_gradients(&net, (batch, flips), layout, cfg);
            let mut grad = vec![0.0f32; n];
            for g in &grads {
                grad.iter_mut().zip(&g.g).for_each(|(a, b)| *a += b);
                total += g.loss;
            }
            let scale = 1.0 / batch.len() as f32;
            grad.iter_mut().for_each(|g| *g *= scale);
            adam.step(&mut net, &grad, lr);
        }
        let secs = start.elapsed().as_secs_f64().max(1e-9);
        let report = EpochReport {
            epoch,
            train_loss: total / train.len().max(1) as f64,
            validation_loss: loss(&net, &validation, layout, cfg.wdl),
            positions_per_second: train.len() as f64 / secs,
            lr,
        };
        if !(report.train_loss.is_finite() && report.validation_loss.is_finite()) {
            return Err(super::NetError::Diverged {
                epoch,
                train: report.train_loss,
                validation: report.validation_loss,
                lr,
            });
        }
        on_epoch(&report, &net);
        if cfg.lr_step > 0 && epoch % cfg.lr_step == 0 {
            lr *= cfg.lr_drop;
        }
    }
    Ok(net)
}

/// Whether each of `n` records is shown mirrored this epoch (none unless `mirror`).
fn mirror_choices(n: usize, mirror: bool, rng: &mut Rng) -> Vec<bool> {
    let mut flips = vec![false; n];
    if mirror {
        for chunk in flips.chunks_mut(64) {
            let bits = rng.next_u64();
            for (i, f) in chunk.iter_mut().enumerate() {
                *f = bits >> i & 1 == 1;
            }
        }
    }
    flips
}

/// The summed gradients of a batch (its records and whether each is mirrored), split over
/// the threads.
fn batch_gradients(
    net: &FloatNet,
    (batch, flips): (&[Record], &[bool]),
    layout: &Layout,
    cfg: &Config,
) -> Vec<Grad> {
    let threads = cfg.threads.max(1);
    let share = batch.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = batch
            .chunks(share)
            .zip(flips.chunks(share))
            .map(|(part, flips)| {
                s.spawn(move || {
                    let mut g = vec![0.0f32; net.params_len()];
                    let mut scratch = [
                        vec![0.0; net.hidden],
                        vec![0.0; net.hidden],
                        vec![0.0; net.hidden],
                    ];
                    let mut loss = 0.0f64;
                    for (r, &flip) in part.iter().zip(flips) {
                        let inputs = Inputs::of_view(r, layout, flip);
                        loss +=
                            backprop(net, &inputs, target(r, cfg.wdl), &mut g, &mut scratch) as f64;
                    }
                    Grad { g, loss }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("trainer thread"))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_validation_set_is_the_last_records_in_their_order() {
        let records: Vec<Record> = (0..100)
            .map(|i| Record::new(vec![(4, 5), (60, 11)], i, 1, 0, i as u16))
            .collect();
        let (train, validation) = split(&records, 7, 0.1);
        assert_eq!(validation, records[90..].to_vec());
        let mut plies: Vec<u16> = train.iter().map(|r| r.ply).collect();
        assert_ne!(plies, (0..90).collect::<Vec<u16>>(), "shuffled");
        plies.sort_unstable();
        assert_eq!(plies, (0..90).collect::<Vec<u16>>());
    }

    /// Random positions with pieces on files a–d only, scored by material; `mirror` puts
    /// them on files h–e instead.
    fn queenside_positions(n: usize, mirror: bool) -> Vec<Record> {
        let mut rng = Rng::new(11);
        let layout = Layout::CHESS;
        let value = [100i16, 300, 300, 500, 900];
        (0..n)
            .map(|i| {
                let mut free: Vec<u8> = (0..64u8).filter(|sq| sq % 8 < 4).collect();
                let mut take = |rng: &mut Rng| free.swap_remove(rng.below(free.len()));
                let mut squares = vec![(take(&mut rng), 5), (take(&mut rng), 11)];
                let mut score = 0i16;
                for _ in 0..1 + rng.below(5) {
                    let (color, kind) = (rng.below(2) as u8, rng.below(5) as u8);
                    squares.push((take(&mut rng), color * 6 + kind));
                    score += if color == 0 {
                        value[kind as usize]
                    } else {
                        -value[kind as usize]
                    };
                }
                if mirror {
                    squares
                        .iter_mut()
                        .for_each(|s| s.0 = layout.mirror_file(s.0 as usize) as u8);
                }
                Record::new(squares, score, 1, 0, i as u16)
            })
            .collect()
    }

    #[test]
    fn a_mirrored_view_has_the_inputs_of_the_mirror_image() {
        let (plain, mirrored) = (
            queenside_positions(20, false),
            queenside_positions(20, true),
        );
        for (a, b) in plain.iter().zip(&mirrored) {
            let (x, y) = (
                Inputs::of_view(a, &Layout::CHESS, true),
                Inputs::of(b, &Layout::CHESS),
            );
            let sorted = |mut v: Vec<usize>| {
                v.sort_unstable();
                v
            };
            assert_eq!(sorted(x.white), sorted(y.white));
            assert_eq!(sorted(x.black), sorted(y.black));
        }
    }

    /// Trained on queenside positions only, a network knows the kingside images only when the
    /// records were shown mirrored: the held-out images' loss falls to the training loss.
    #[test]
    fn mirroring_teaches_the_mirror_images() {
        let mut records = queenside_positions(600, false);
        records.extend(queenside_positions(200, true).into_iter().skip(150));
        let held = 50.0 / records.len() as f64;
        let run = |mirror: bool| {
            let cfg = Config {
                hidden: 16,
                epochs: 40,
                batch: 64,
                lr: 0.01,
                lr_drop: 0.3,
                lr_step: 30,
                wdl: 0.0,
                seed: 3,
                threads: 1,
                validation: held,
                mirror,
                init: None,
            };
            let mut last = (0.0, 0.0);
            train(&records, &Layout::CHESS, &cfg, |r, _| {
                last = (r.train_loss, r.validation_loss)
            })
            .unwrap();
            last
        };
        let (train_plain, held_plain) = run(false);
        let (train_mirror, held_mirror) = run(true);
        assert!(
            held_mirror < 3.0 * train_mirror.max(1e-3),
            "{held_mirror} vs {train_mirror}"
        );
        assert!(
            held_plain > 4.0 * held_mirror,
            "{held_plain} vs {held_mirror}"
        );
        assert!(train_plain < 3.0 * held_mirror.max(1e-3));
    }

    #[test]
    fn a_network_read_back_as_floats_quantises_to_itself() {
        let records = queenside_positions(300, false);
        let cfg = small_config(5, 0.01, None);
        let q = train(&records, &Layout::CHESS, &cfg, |_, _| {})
            .unwrap()
            .quantise();
        assert_eq!(FloatNet::from_network(&q).quantise(), q);
    }

    #[test]
    fn a_warm_start_begins_where_its_network_ended() {
        let records = queenside_positions(600, false);
        let mut trained = 0.0;
        let net = train(
            &records,
            &Layout::CHESS,
            &small_config(30, 0.01, None),
            |r, _| trained = r.validation_loss,
        )
        .unwrap();
        // One epoch at a step size too small to learn anything: only the start differs.
        let first = |init: Option<FloatNet>| {
            let mut loss = 0.0;
            train(
                &records,
                &Layout::CHESS,
                &small_config(1, 1e-9, init),
                |r, _| loss = r.validation_loss,
            )
            .unwrap();
            loss
        };
        let (warm, cold) = (first(Some(net)), first(None));
        assert!((warm - trained).abs() < 1e-6, "{warm} vs {trained}");
        assert!(cold > 2.0 * warm, "{cold} vs {warm}");
    }

    /// A step size of infinity sends the losses to NaN: an error, and the epoch it
    /// happened in is not reported (nothing is written of it).
    #[test]
    fn a_diverging_training_is_an_error() {
        let records = queenside_positions(300, false);
        let mut heard = 0;
        let e = train(
            &records,
            &Layout::CHESS,
            &small_config(5, f32::INFINITY, None),
            |_, _| heard += 1,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("diverged") && e.contains("--lr"), "{e}");
        assert_eq!(heard, 0, "{e}");
    }

    fn small_config(epochs: u32, lr: f32, init: Option<FloatNet>) -> Config {
        Config {
            hidden: 16,
            epochs,
            batch: 64,
            lr,
            lr_drop: 0.3,
            lr_step: 1000,
            wdl: 0.0,
            seed: 3,
            threads: 1,
            validation: 0.1,
            mirror: false,
            init,
        }
    }
}
