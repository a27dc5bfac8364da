"""ge.torch.compile on torchvision and torch.nn models, static and dynamic, against eager PyTorch."""

import pytest

torch = pytest.importorskip("torch")
torchvision = pytest.importorskip("torchvision")
nn = torch.nn

import ge.torch  # noqa: E402
from conftest import assert_close  # noqa: E402


def _randomize_batch_norm(model):
    """Non-trivial running statistics, so that batch norm is really tested."""
    g = torch.Generator().manual_seed(1)
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.copy_(torch.rand(m.num_features, generator=g) * 0.2 - 0.1)
            m.running_var.copy_(torch.rand(m.num_features, generator=g) + 0.5)
    return model


def _check(compiled, model, inputs, what):
    with torch.no_grad():
        ref = model(*inputs)
    got = compiled(*inputs)
    refs = ref if isinstance(ref, (tuple, list)) else (ref,)
    gots = got if isinstance(got, (tuple, list)) else (got,)
    flat = lambda xs: [t for x in xs for t in (flat(x) if isinstance(x, (tuple, list)) else [x])]
    for i, (g, r) in enumerate(zip(flat(gots), flat(refs))):
        assert_close(g.numpy(), r.numpy(), f"{what} output {i}")


def _models():
    torch.manual_seed(0)
    resnet = _randomize_batch_norm(torchvision.models.resnet18(num_classes=10)).eval()
    mobilenet = _randomize_batch_norm(torchvision.models.mobilenet_v3_small(num_classes=10)).eval()
    layer = nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64, batch_first=True)
    encoder = nn.TransformerEncoder(layer, num_layers=2).eval()
    lstm = nn.LSTM(input_size=8, hidden_size=16, num_layers=2).eval()
    image = lambda n: torch.randn(n, 3, 64, 64)
    return {
        # name: (model, example maker taking (batch, seq), dims dynamic=True leaves static)
        "resnet18": (resnet, lambda b, s: (image(b),), True),
        "mobilenet_v3_small": (mobilenet, lambda b, s: (image(b),), True),
        "transformer_encoder": (encoder, lambda b, s: (torch.randn(b, s, 32),), [(0, 1)]),
        "lstm": (lstm, lambda b, s: (torch.randn(s, b, 8),), [(0, 1)]),  # [seq, batch, feature]
    }


MODELS = _models()


@pytest.mark.parametrize("name", list(MODELS))
def test_static(name):
    model, make, _ = MODELS[name]
    compiled = ge.torch.compile(model, make(2, 6))
    assert not compiled.fallbacks, compiled.report()
    assert all(s["model"].mode == "sink" for s in compiled.segments), compiled.report()
    _check(compiled, model, make(2, 6), name)


@pytest.mark.parametrize("name", list(MODELS))
def test_dynamic(name):
    model, make, dynamic = MODELS[name]
    compiled = ge.torch.compile(model, make(2, 6), dynamic=dynamic)
    assert not compiled.fallbacks, compiled.report()
    # Repeated and changing shapes: host-scheduled nodes reuse their inference and tiling while
    # the input shapes repeat and redo them when they change.
    for batch, seq in [(1, 4), (3, 7), (3, 7), (1, 4), (1, 4)]:
        _check(compiled, model, make(batch, seq), f"{name} batch {batch} seq {seq}")


def test_static_shapes_are_checked():
    model, make, _ = MODELS["lstm"]
    compiled = ge.torch.compile(model, make(2, 6))
    with pytest.raises(ge.GeError, match=r"input 'input_0': expected float32\[6, 2, 8\]"):
        compiled(*make(3, 6))


@torch.fx.wrap
def signed_sqrt(x):
    """A Python function GE has no converter for (fx records it as one call)."""
    return torch.sign(x) * torch.sqrt(torch.abs(x))


class WithFallbacks(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.fc = nn.Linear(4 * 8 * 8, 5)

    def forward(self, x):
        y = torch.relu(self.conv(x))
        y = torch.fft.fft2(y).abs()  # complex values: PyTorch eager
        y = signed_sqrt(y - 0.5)
        return self.fc(y.view(y.size(0), -1)), y.mean()


@pytest.mark.parametrize("dynamic", [False, True])
def test_fallback_matches_eager_and_is_reported(dynamic):
    torch.manual_seed(0)
    model = WithFallbacks().eval()
    compiled = ge.torch.compile(model, (torch.randn(2, 3, 8, 8),), dynamic=dynamic)
    reasons = {f["target"]: f["reason"] for f in compiled.fallbacks}
    assert any("fft2" in t and "no converter" in r for t, r in reasons.items()), compiled.report()
    assert any("signed_sqrt" in t for t in reasons), compiled.report()
    assert any("complex" in r for r in reasons.values()), compiled.report()  # Tensor.abs of a complex tensor
    report = compiled.report()
    assert "signed_sqrt" in report and "fft2" in report
    assert len(compiled.segments) >= 2
    for batch in ([2] if not dynamic else [1, 3]):
        _check(compiled, model, (torch.randn(batch, 3, 8, 8),), f"fallback batch {batch}")


def test_multihead_attention_with_weights_and_causal_mask():
    torch.manual_seed(0)
    mha = nn.MultiheadAttention(16, 2).eval()  # [seq, batch, embed]
    mask = nn.Transformer.generate_square_subsequent_mask(5)

    class Causal(nn.Module):
        def __init__(self):
            super().__init__()
            self.mha = mha
            self.register_buffer("mask", mask)

        def forward(self, x):
            return self.mha(x, x, x, attn_mask=self.mask)

    model = Causal().eval()
    x = torch.randn(5, 3, 16)
    compiled = ge.torch.compile(model, (x,), dynamic=[(1,)])
    assert not compiled.fallbacks, compiled.report()
    _check(compiled, model, (x,), "attention")
    _check(compiled, model, (torch.randn(5, 2, 16),), "attention batch 2")


class Functional(nn.Module):
    """Functions and Tensor methods (call_function / call_method converters) in one module."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)
        self.norm = nn.LayerNorm(8)
        self.register_buffer("scale", torch.linspace(0.5, 1.5, 8))

    def forward(self, x):  # x: [batch, seq, 8]
        b, s = x.size(0), x.shape[1]
        y = torch.nn.functional.gelu(self.proj(x)) * self.scale
        y = self.norm(y + x)
        heads = y.view(b, s, 2, 4).permute(0, 2, 1, 3)              # [b, 2, s, 4]
        att = torch.softmax(heads @ heads.transpose(-1, -2) / 2.0, dim=-1)
        z = (att @ heads).transpose(1, 2).reshape(b, s, -1)          # [b, s, 8]
        z = torch.cat([z[:, :1], z[:, 1:] * 0.5], dim=1)
        z = torch.nn.functional.silu(z) - 1 + torch.sigmoid(-z).unsqueeze(-1).squeeze(-1)
        z = torch.where(z > 0, z, z * 0.1).masked_fill(z < -0.5, 0.25) + (z >= 1).float()
        pooled = z.mean(dim=1, keepdim=True).expand(b, s, 8)
        w = torch.stack([pooled, z], dim=0).sum(0)
        return torch.clamp(w, -2.0, 2.0).flatten(1), torch.exp(-w.abs()).sqrt()[..., 0]


@pytest.mark.parametrize("dynamic", [False, [(0, 1)]])
def test_functional_converters(dynamic):
    torch.manual_seed(0)
    model = Functional().eval()
    compiled = ge.torch.compile(model, (torch.randn(2, 5, 8),), dynamic=dynamic)
    assert not compiled.fallbacks, compiled.report()
    sizes = [(2, 5)] if not dynamic else [(1, 3), (3, 6)]
    for b, s in sizes:
        _check(compiled, model, (torch.randn(b, s, 8),), f"functional {b}x{s}")


def test_gru_and_bidirectional_lstm_batch_first():
    torch.manual_seed(0)
    for rnn in (nn.GRU(6, 10, 2, batch_first=True), nn.LSTM(6, 10, 2, batch_first=True, bidirectional=True)):
        rnn = rnn.eval()
        compiled = ge.torch.compile(rnn, (torch.randn(2, 5, 6),), dynamic=[(0, 1)])
        assert not compiled.fallbacks, compiled.report()
        for b, s in [(1, 3), (3, 4)]:
            _check(compiled, rnn, (torch.randn(b, s, 6),), f"{type(rnn).__name__} {b}x{s}")


def test_threads_share_a_compiled_module():
    import threading
    model, make, dynamic = MODELS["transformer_encoder"]
    compiled = ge.torch.compile(model, make(2, 6), dynamic=dynamic)
    inputs = [make(1 + t, 3 + t) for t in range(4)]
    with torch.no_grad():
        refs = [model(*x) for x in inputs]
    errors = []

    def worker(x, ref):
        try:
            for _ in range(5):
                assert_close(compiled(*x).numpy(), ref.numpy())
        except Exception as e:  # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(x, r)) for x, r in zip(inputs, refs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


class Scaled(nn.Module):
    def forward(self, x, factor):
        return torch.relu(x) * factor


def test_non_tensor_inputs_are_compiled_in():
    compiled = ge.torch.compile(Scaled(), (torch.randn(2, 3), 3))
    x = torch.randn(2, 3)
    assert_close(compiled(x, 3).numpy(), (torch.relu(x) * 3).numpy())
    with pytest.raises(ValueError, match="input 1: compiled for the non-tensor value 3, got 4"):
        compiled(x, 4)


class InPlaceAndPromotion(nn.Module):
    def forward(self, x):
        y = torch.relu(x)
        y.mul_(2)  # in place: eager, and the add below must see it
        z = y + x
        mask = (z > 0).long()
        return z + mask * 0.5  # int64 * float: PyTorch's type promotion, left to eager


def test_in_place_and_type_promotion_run_in_eager():
    model = InPlaceAndPromotion()
    compiled = ge.torch.compile(model, (torch.randn(3, 4),))
    reasons = {f["target"]: f["reason"] for f in compiled.fallbacks}
    assert "Tensor.mul_" in reasons, compiled.report()
    assert any("type promotion" in r for r in reasons.values()), compiled.report()
    x = torch.randn(3, 4)
    _check(compiled, model, (x,), "in place")


@torch.fx.wrap
def cube_root(x):
    return torch.sign(x) * torch.abs(x) ** (1.0 / 3)


@ge.torch.converter(cube_root)
def _convert_cube_root(g, x):
    """A user's converter: registered like the built-in ones."""
    return g.op("Mul", g.op("Sign", x), g.op("Pow", g.op("Abs", x), g.like(1.0 / 3, x)))


class CubeRoot(nn.Module):
    def forward(self, x):
        return cube_root(x) + 1


@pytest.mark.parametrize("mode,opt_level", [("host", 0), ("sink", 2)])
def test_user_converter_and_options(mode, opt_level):
    compiled = ge.torch.compile(CubeRoot(), (torch.randn(4, 5),), mode=mode, opt_level=opt_level)
    assert not compiled.fallbacks, compiled.report()
    assert compiled.segments[0]["model"].mode == mode
    _check(compiled, CubeRoot(), (torch.randn(4, 5),), f"cube root {mode}")
