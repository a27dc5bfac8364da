"""ge.torch training: forward and backward graphs on GE (AOTAutograd) and GE's optimizer steps
follow eager PyTorch's loss curve with torch.optim."""

import copy

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn

import ge.torch  # noqa: E402
from ge.torch import optim  # noqa: E402


def _cnn():
    torch.manual_seed(0)
    return nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.Conv2d(4, 8, 3, stride=2, padding=1),
                         nn.ReLU(), nn.Flatten(), nn.Linear(8 * 4 * 4, 10))


def _data(steps):
    g = torch.Generator().manual_seed(1)
    xs = torch.randn(steps, 16, 1, 8, 8, generator=g)
    teacher = torch.randn(64, 10, generator=g)
    ys = (xs.reshape(steps, 16, 64) @ teacher).argmax(-1)  # labels a CNN can learn
    return xs, ys


def _train(model, opt, xs, ys):
    losses = []
    for x, y in zip(xs, ys):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


@pytest.mark.parametrize("name", ["sgd_momentum", "adam"])
def test_cnn_training_follows_eager(name):
    steps = 200
    xs, ys = _data(steps)
    eager = _cnn()
    ours = copy.deepcopy(eager)
    if name == "sgd_momentum":
        eager_opt = torch.optim.SGD(eager.parameters(), lr=0.05, momentum=0.9)
        ge_opt = optim.SGD(ours.parameters(), lr=0.05, momentum=0.9)
    else:
        eager_opt = torch.optim.Adam(eager.parameters(), lr=1e-3)
        ge_opt = optim.Adam(ours.parameters(), lr=1e-3)
    compiled = ge.torch.compile(ours, (xs[0],), training=True)
    ref = _train(eager, eager_opt, xs, ys)
    got = _train(compiled, ge_opt, xs, ys)
    assert set(compiled.compiled) == {"forward", "backward"}
    assert not compiled.fallbacks, compiled.report()  # forward and backward wholly on GE
    for step, (a, b) in enumerate(zip(got, ref)):
        assert abs(a - b) <= 1e-3 * abs(b), f"step {step}: loss {a} on GE, {b} in eager\n{compiled.report()}"
    assert ref[-1] < ref[0]  # it learned something


def test_parameters_without_gradients_are_left_alone():
    torch.manual_seed(0)
    used, unused = nn.Linear(3, 2), nn.Linear(3, 2)
    eager_used, eager_unused = copy.deepcopy(used), copy.deepcopy(unused)
    ge_opt = optim.SGD(list(used.parameters()) + list(unused.parameters()), lr=0.1, momentum=0.9)
    eager_opt = torch.optim.SGD(list(eager_used.parameters()) + list(eager_unused.parameters()), lr=0.1,
                                momentum=0.9)
    x = torch.randn(4, 3)
    for step in range(3):
        for m, opt in ((used, ge_opt), (eager_used, eager_opt)):
            opt.zero_grad()
            m(x).square().sum().backward()
            opt.step()
    for a, b in zip(list(used.parameters()) + list(unused.parameters()),
                    list(eager_used.parameters()) + list(eager_unused.parameters())):
        assert torch.allclose(a, b, rtol=1e-5, atol=1e-6)


def test_unconverted_aten_operators_run_in_eager():
    torch.manual_seed(0)
    eager = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.MaxPool2d(2), nn.Tanh(), nn.Flatten(),
                          nn.Linear(4 * 4 * 4, 10))
    ours = copy.deepcopy(eager)
    xs, ys = _data(20)
    compiled = ge.torch.compile(ours, (xs[0],), training=True)
    ref = _train(eager, torch.optim.SGD(eager.parameters(), lr=0.05, momentum=0.9), xs, ys)
    got = _train(compiled, optim.SGD(ours.parameters(), lr=0.05, momentum=0.9), xs, ys)
    targets = {f["target"] for f in compiled.fallbacks}
    assert "aten.max_pool2d_with_indices.default" in targets, compiled.report()
    assert "aten.max_pool2d_with_indices_backward.default" in targets, compiled.report()
    for step, (a, b) in enumerate(zip(got, ref)):
        assert abs(a - b) <= 1e-3 * abs(b), f"step {step}: loss {a} on GE, {b} in eager"
