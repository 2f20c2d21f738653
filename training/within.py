"""The within-question loss of expert iteration (`kiai train value --teacher judge --loss regret`):
selfplay's value learns, question by question, which answer the teacher prefers.

A value trained on chances to win (training.value, or training.teacher's targets) is asked more
than the default needs: it must place every afterstate on one scale. The default only compares the
answers to one question. So here the value's logits z over a question's answers are read as a
policy, softmax(z / tau), and the loss is that policy's expected regret by the teacher's values:

    loss(question) = sum_a softmax(z / tau)_a (max_b E(b) - E(a))

with E the teacher's estimate of each answer (a chance to win). It is 0 only as the policy plays
the teacher's best answer, and for a given set of scores it is smallest exactly when they rank the
answers as the teacher does (the rearrangement inequality): an answer the teacher finds worse
by much costs much, a near tie almost nothing, so noise in the teacher's close calls teaches
little. A second term, `anchor` times the mean squared change of z from the value the iteration
starts from, keeps the value's level, which selfplay's `edge` and `settled` read.

The positions come from the default's own games (judge's `follow`: judge weighs every answer, the
default plays its own; DAgger), so the value learns on the tables it reaches.
"""

from __future__ import annotations

import numpy as np

from kiai.training.common import TrainError
from kiai.training.value import folded_arrays, scaled_net

TAU = 0.05  # the policy's temperature, in logits: answers this far apart share their weight about 3:1
ANCHOR = 0.1  # weight of the squared change of the logit from the starting value
BATCH = 8192  # questions per step


def regret(estimate: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Each answer's regret by the teacher's values: its question's best estimate less its own."""
    nq = int(q[-1]) + 1 if len(q) else 0
    best = np.full(nq, -np.inf)
    np.maximum.at(best, q, estimate)
    return best[q] - estimate


def question_loss(z, r, seg, nq: int, tau: float):
    """The mean over nq questions of the expected regret (r) of softmax(z / tau) within each
    question; seg: each row's question, 0 .. nq - 1 (torch tensors). Rows of one question never
    meet another's: the softmax is taken per segment."""
    import torch

    zt = z / tau
    top = torch.full((nq,), -torch.inf, dtype=zt.dtype).scatter_reduce(0, seg, zt.detach(), "amax")
    e = torch.exp(zt - top[seg])
    den = torch.zeros(nq, dtype=zt.dtype).index_add(0, seg, e)
    return (e / den[seg] * r).sum() / nq


def fit(x: np.ndarray, q: np.ndarray, r: np.ndarray, anchor_z: np.ndarray, init: dict, *, epochs: int,
        tau: float = TAU, anchor: float = ANCHOR, seed: int = 0, threads: int = 1, lr: float = 3e-4,
        on_epoch=None) -> dict:
    """Fit the value (its arrays `init`: strategies.nets.modelfile's w1 .. b3) to the question loss
    on rows x (q: each row's question, counted from 0 in order; r: each row's regret) plus `anchor`
    times the squared change of the logit from anchor_z; the arrays of the fitted value. x is scaled
    in place (training.value.scaled_net)."""
    import torch

    if len(q) == 0:
        raise TrainError("no questions to learn from: the teacher weighed none")
    if np.any(np.diff(q) < 0):
        raise TrainError("a question's answers must come together (rows sorted by question)")
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    X, net, mean, scale = scaled_net(x, init["w1"].shape[0], init["w2"].shape[0], init)
    Z0 = torch.from_numpy(anchor_z.astype(np.float32))
    R = torch.from_numpy(r.astype(np.float32))
    nq = int(q[-1]) + 1
    counts = np.bincount(q, minlength=nq)
    starts = np.r_[0, np.cumsum(counts)]
    order = np.arange(nq)
    rng = np.random.default_rng(seed)
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    for e in range(epochs):
        rng.shuffle(order)
        total = 0.0
        for s in range(0, nq, BATCH):
            qs = np.sort(order[s:s + BATCH])
            rows = np.concatenate([np.arange(starts[i], starts[i + 1]) for i in qs])
            seg = torch.from_numpy(np.repeat(np.arange(len(qs)), counts[qs]))
            ii = torch.from_numpy(rows)
            z = net(X[ii])[:, 0]
            loss_q = question_loss(z, R[ii], seg, len(qs), tau)
            loss = loss_q + anchor * ((z - Z0[ii]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss_q.item() * len(qs)
        if on_epoch is not None:
            on_epoch(e, total / nq)
    return folded_arrays(net, mean, scale)
