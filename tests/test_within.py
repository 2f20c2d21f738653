"""The within-question loss (training.within): least exactly when the scores rank each question's
answers as the teacher does, and never mixing two questions."""

import itertools

import numpy as np
import pytest

from kiai.training import within as W
from kiai.training.common import TrainError

torch = pytest.importorskip("torch")


def _loss(z, r, q, tau=W.TAU):
    q = np.asarray(q)
    return float(W.question_loss(torch.tensor(z, dtype=torch.float64), torch.tensor(r, dtype=torch.float64),
                                 torch.from_numpy(q), int(q.max()) + 1, tau))


def test_the_loss_is_least_exactly_when_the_scores_rank_the_answers_as_the_teacher_does():
    """Every order of the same four scores over four answers: the least loss is the order that puts
    the answers as the teacher's values do (least regret first), and every other order costs more."""
    est = np.array([0.31, 0.42, 0.27, 0.35])
    r = W.regret(est, np.zeros(4, dtype=np.int64))
    np.testing.assert_allclose(r, est.max() - est)
    scores = np.array([0.3, -0.2, 0.1, 0.0])
    teacher = np.argsort(-est)  # the teacher's ranking, best first
    best = np.empty(4)
    best[teacher] = np.sort(scores)[::-1]
    least = _loss(best, r, [0] * 4)
    for perm in itertools.permutations(scores):
        perm = np.array(perm)
        if np.array_equal(perm, best):
            continue
        assert _loss(perm, r, [0] * 4) > least + 1e-12
    # ranked as the teacher does, the loss falls to 0 as the teacher's best stands further ahead
    losses = [_loss(best + np.where(np.arange(4) == teacher[0], m, 0.0), r, [0] * 4) for m in (0.0, 0.2, 0.5, 1.0)]
    assert all(a > b for a, b in zip(losses, losses[1:])) and losses[-1] < 1e-6
    # a question whose answers the teacher values alike teaches nothing: its loss is 0 whatever the scores
    assert _loss(scores, np.zeros(4), [0] * 4) == 0.0


def test_the_groups_of_answers_never_mix_two_questions():
    """A batch's loss is the mean of its questions' own losses, and moving a score to another question
    changes it: each softmax is taken within its own question."""
    rng = np.random.default_rng(1)
    k = [2, 5, 3, 4]
    q = np.repeat(np.arange(len(k)), k)
    est = rng.uniform(0.1, 0.6, len(q))
    r = W.regret(est, q)
    z = rng.normal(0, 0.2, len(q))
    alone = [_loss(z[q == j], r[q == j], np.zeros(k[j], dtype=np.int64)) for j in range(len(k))]
    assert _loss(z, r, q) == pytest.approx(np.mean(alone), rel=1e-12)
    assert (r[np.r_[0, np.cumsum(k)[:-1]] + np.array([int(np.argmax(est[q == j])) for j in range(len(k))])] == 0).all()
    merged = q.copy()
    merged[q == 1] = 0  # questions 0 and 1 read as one: another loss
    merged[merged > 1] -= 1
    assert _loss(z, r, merged) != pytest.approx(_loss(z, r, q), rel=1e-6)


def test_the_fit_refuses_rows_whose_questions_are_not_together():
    init = {"w1": np.zeros((4, 3), np.float32), "b1": np.zeros(4, np.float32), "w2": np.zeros((2, 4), np.float32),
            "b2": np.zeros(2, np.float32), "w3": np.zeros((1, 2), np.float32), "b3": np.zeros(1, np.float32)}
    x = np.zeros((4, 3), np.float32)
    with pytest.raises(TrainError, match="come together"):
        W.fit(x, np.array([0, 1, 0, 1]), np.zeros(4), np.zeros(4), init, epochs=1)
    with pytest.raises(TrainError, match="no questions"):
        W.fit(x[:0], np.zeros(0, np.int64), np.zeros(0), np.zeros(0), init, epochs=1)


def test_the_fit_moves_each_question_toward_the_teachers_best_answer():
    """On a toy value (3 features, one hot per answer), the fitted scores put the teacher's best answer
    of each question first, where the starting value put it last."""
    rng = np.random.default_rng(2)
    nq, k = 300, 3
    q = np.repeat(np.arange(nq), k)
    x = np.tile(np.eye(k, dtype=np.float32), (nq, 1)) + rng.normal(0, 0.01, (nq * k, k)).astype(np.float32)
    est = np.tile(np.array([0.2, 0.3, 0.5]), nq)  # the teacher: answer 2 is best
    h1, h2 = 8, 4
    init = {"w1": rng.normal(0, 0.3, (h1, k)).astype(np.float32), "b1": np.zeros(h1, np.float32),
            "w2": rng.normal(0, 0.3, (h2, h1)).astype(np.float32), "b2": np.zeros(h2, np.float32),
            "w3": np.ones((1, h2), np.float32), "b3": np.zeros(1, np.float32)}
    from kiai.training.value import predict

    def first(arrays):
        z = predict(arrays, x).reshape(nq, k)
        return np.bincount(z.argmax(1), minlength=k) / nq

    arrays = W.fit(x.copy(), q, W.regret(est, q), np.zeros(len(q)), init, epochs=30, anchor=0.0, lr=1e-2)
    assert first(arrays)[2] > 0.99
