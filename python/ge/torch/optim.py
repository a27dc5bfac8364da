"""Optimizers whose update step runs as one GE graph over all parameters (flattened into one
vector): SGD with momentum (GE's Momentum operator) and Adam (elementwise operators: PyTorch adds
epsilon after the bias correction, the ONNX Adam operator before it), with PyTorch's update
formulas (torch.optim, 1.13), so that
training follows eager PyTorch. The state (momentum, moments) is kept between steps; a parameter
without a gradient is left as it is (Adam's step count is shared by all parameters).
"""

import math

import numpy as np
import torch

import ge

from .onnx_builder import Builder


class _Optimizer:
    """One flat vector of every parameter; step() feeds it, the gradients and the state to GE."""

    _state_names = ()

    def __init__(self, params, mode, opt_level):
        self.params = [p for p in params if p.requires_grad]
        if not self.params:
            raise ValueError("optimizer got no parameters that require grad")
        self._numel = sum(p.numel() for p in self.params)
        self._state = {name: np.zeros(self._numel, np.float32) for name in self._state_names}
        g = Builder("")
        ins = {name: g.add_input(name, torch.float32, (self._numel,), (False,))
               for name in ("param", "grad") + self._state_names}
        for name, value in self._scalars(1).items():
            ins[name] = g.add_input(name, torch.from_numpy(np.asarray(value)).dtype, (), ())
        update = self._update(g, ins)
        outs = [update[k] for k in ("param",) + self._state_names]
        for v in outs:
            v.dtype, v.shape, v.dyn = torch.float32, (self._numel,), (False,)
        model = g.model(outs, type(self).__name__)
        self._out_names = [v.name for v in outs]
        self._model = ge.compile(model.SerializeToString(), mode=mode, opt_level=opt_level, name=type(self).__name__)
        self._steps = 0

    def zero_grad(self, set_to_none=False):
        """As torch.optim 1.13: gradients become zeros (still updated with) or, with set_to_none, None (skipped)."""
        for p in self.params:
            if set_to_none:
                p.grad = None
            elif p.grad is not None:
                p.grad.detach_()
                p.grad.zero_()

    def step(self):
        for p in self.params:
            if p.dtype != torch.float32:
                raise TypeError(f"GE optimizers update float32 parameters, got {p.dtype}")
        self._steps += 1
        param = torch.cat([p.detach().reshape(-1) for p in self.params]).numpy()
        grad = torch.cat([(p.grad if p.grad is not None else torch.zeros_like(p)).detach().reshape(-1)
                          for p in self.params]).numpy()
        feeds = dict(param=param, grad=grad, **self._state)
        feeds.update(self._scalars(self._steps))
        out = self._model.run(feeds)
        new = [np.array(out[n]) for n in self._out_names]
        offset = 0
        for p in self.params:  # as torch.optim: a parameter without a gradient is left alone
            if p.grad is None:
                span = slice(offset, offset + p.numel())
                new[0][span] = param[span]
                for k, name in enumerate(self._state_names):
                    new[1 + k][span] = self._state[name][span]
            offset += p.numel()
        for name, value in zip(self._state_names, new[1:]):
            self._state[name] = value
        flat = torch.from_numpy(new[0])
        offset = 0
        with torch.no_grad():
            for p in self.params:
                p.copy_(flat[offset:offset + p.numel()].view_as(p))
                offset += p.numel()

    def _scalars(self, step):
        """The graph's scalar inputs at this step (numpy scalars of their dtype)."""
        return {}


class SGD(_Optimizer):
    """torch.optim.SGD with momentum (dampening 0, not Nesterov): GE's Momentum operator (ONNX training
    domain, mode standard, beta 1), which is the same update: buf = mu * buf + (g + wd * p); p -= lr * buf."""

    _state_names = ("momentum_buffer",)

    def __init__(self, params, lr, momentum=0.0, weight_decay=0.0, mode="auto", opt_level=2):
        self.lr, self.momentum, self.weight_decay = lr, momentum, weight_decay
        super().__init__(params, mode, opt_level)

    def _scalars(self, step):
        return {"lr": np.float32(self.lr), "step": np.int64(step)}

    def _update(self, g, v):
        param, buf = g.op("Momentum", v["lr"], v["step"], v["param"], v["grad"], v["momentum_buffer"], outputs=2,
                          domain="ai.onnx.preview.training", alpha=float(self.momentum), beta=1.0,
                          mode="standard", norm_coefficient=float(self.weight_decay))
        return {"param": param, "momentum_buffer": buf}


class Adam(_Optimizer):
    """torch.optim.Adam (not AMSGrad): the moments, bias corrections and step as torch 1.13 computes them."""

    _state_names = ("exp_avg", "exp_avg_sq")

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, mode="auto", opt_level=2):
        self.lr, self.betas, self.eps, self.weight_decay = lr, betas, eps, weight_decay
        super().__init__(params, mode, opt_level)

    def _scalars(self, step):
        b1, b2 = self.betas
        step = max(step, 1)
        return {"neg_step_size": np.float32(-self.lr / (1 - b1 ** step)),
                "bias_correction2_sqrt": np.float32(math.sqrt(1 - b2 ** step))}

    def _update(self, g, v):
        b1, b2 = self.betas
        f = lambda x: g.const(x, torch.float32)
        grad = v["grad"]
        if self.weight_decay:
            grad = g.op("Add", grad, g.op("Mul", v["param"], f(self.weight_decay)))
        exp_avg = g.op("Add", g.op("Mul", v["exp_avg"], f(b1)), g.op("Mul", grad, f(1 - b1)))
        exp_avg_sq = g.op("Add", g.op("Mul", v["exp_avg_sq"], f(b2)),
                          g.op("Mul", g.op("Mul", grad, grad), f(1 - b2)))
        denom = g.op("Add", g.op("Div", g.op("Sqrt", exp_avg_sq), v["bias_correction2_sqrt"]), f(self.eps))
        param = g.op("Add", v["param"], g.op("Mul", g.op("Div", exp_avg, denom), v["neg_step_size"]))
        return {"param": param, "exp_avg": exp_avg, "exp_avg_sq": exp_avg_sq}
