"""Converters for the sequence modules fx keeps whole: nn.LSTM, nn.GRU, nn.MultiheadAttention,
nn.TransformerEncoderLayer and nn.TransformerEncoder (their forward has Python control flow that
symbolic tracing cannot follow, so each is converted from its configuration and weights).
"""

import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from . import ops_nn, ops_tensor, registry
from .onnx_builder import V
from .registry import Unsupported, converter


def _i64(*v):
    return np.array(v, np.int64)


# ---- recurrent -------------------------------------------------------------------------------

# PyTorch packs gates as (i, f, g, o) for LSTM and (r, z, n) for GRU; ONNX as (i, o, f, c) and (z, r, h).
_GATE_ORDER = {"LSTM": [0, 3, 1, 2], "GRU": [1, 0, 2]}


def _reorder(w, kind):
    return torch.cat([w.chunk(len(_GATE_ORDER[kind]), 0)[i] for i in _GATE_ORDER[kind]], 0)


def _rnn_weights(g, mod, layer, kind):
    """W [D, G*H, in], R [D, G*H, H], B [D, 2*G*H] for one layer, gates in ONNX order."""
    suffixes = [""] + (["_reverse"] if mod.bidirectional else [])
    ws, rs, bs = [], [], []
    for s in suffixes:
        w_ih = getattr(mod, f"weight_ih_l{layer}{s}").detach()
        w_hh = getattr(mod, f"weight_hh_l{layer}{s}").detach()
        ws.append(_reorder(w_ih, kind))
        rs.append(_reorder(w_hh, kind))
        if mod.bias:
            b_ih = getattr(mod, f"bias_ih_l{layer}{s}").detach()
            b_hh = getattr(mod, f"bias_hh_l{layer}{s}").detach()
        else:
            b_ih = b_hh = torch.zeros(w_ih.shape[0])
        bs.append(torch.cat([_reorder(b_ih, kind), _reorder(b_hh, kind)]))
    return g.initializer(torch.stack(ws)), g.initializer(torch.stack(rs)), g.initializer(torch.stack(bs))


def _layer_state(g, state, layer, directions):
    if state is None:
        return None
    return g.op("Slice", state, g.const(_i64(layer * directions)), g.const(_i64((layer + 1) * directions)),
                g.const(_i64(0)))


def _rnn(g, mod, x, states, kind):
    """A multi-layer RNN as one ONNX node per layer; returns the output and the final states."""
    if not isinstance(x, V) or x.rank != 3:
        raise Unsupported(f"{kind} input must be a batched 3-D tensor (no PackedSequence)")
    if getattr(mod, "proj_size", 0):
        raise Unsupported("LSTM with proj_size")
    if mod.training and mod.dropout > 0 and mod.num_layers > 1:
        raise Unsupported(f"{kind} dropout in training mode")
    directions = 2 if mod.bidirectional else 1
    y = g.op("Transpose", x, perm=[1, 0, 2]) if mod.batch_first else x  # [S, B, in]
    finals = [[] for _ in states]
    for layer in range(mod.num_layers):
        w, r, b = _rnn_weights(g, mod, layer, kind)
        init = [_layer_state(g, s, layer, directions) for s in states]
        attrs = dict(hidden_size=mod.hidden_size, direction="bidirectional" if mod.bidirectional else "forward")
        if kind == "GRU":
            attrs["linear_before_reset"] = 1  # PyTorch applies the reset gate after the hidden projection
        outs = g.op(kind, y, w, r, b, None, *init, outputs=1 + len(states), **attrs)
        if directions == 1:
            y = g.op("Squeeze", outs[0], g.const(_i64(1)))
        else:  # [S, D, B, H] -> [S, B, D*H]
            y = g.op("Reshape", g.op("Transpose", outs[0], perm=[0, 2, 1, 3]), g.const(_i64(0, 0, -1)))
        for k in range(len(states)):
            finals[k].append(outs[1 + k])
    if mod.batch_first:
        y = g.op("Transpose", y, perm=[1, 0, 2])
    finals = [f[0] if len(f) == 1 else g.op("Concat", *f, axis=0) for f in finals]
    return y, finals


@converter(nn.LSTM)
def lstm(g, mod, x, hx=None):
    h0, c0 = hx if hx is not None else (None, None)
    y, (h, c) = _rnn(g, mod, x, [h0, c0], "LSTM")
    return y, (h, c)


@converter(nn.GRU)
def gru(g, mod, x, hx=None):
    y, (h,) = _rnn(g, mod, x, [hx], "GRU")
    return y, h


# ---- attention -------------------------------------------------------------------------------

def _additive_mask(g, mask):
    """attn_mask as a float tensor added to the scores: a constant bool mask becomes 0 / -inf."""
    if mask is None:
        return None
    if isinstance(mask, torch.Tensor):
        if mask.dtype == torch.bool:
            mask = torch.zeros(mask.shape).masked_fill(mask, float("-inf"))
        if mask.dim() != 2:
            raise Unsupported("a 3-D attention mask")
        return g.initializer(mask.float())
    if mask.dtype is torch.bool or mask.rank != 2:
        raise Unsupported("a computed attention mask must be a 2-D float tensor")
    return mask


def _heads(g, x, heads, head_dim, perm):
    """[B, L, E] -> [B, heads, L, head_dim] (perm [0, 2, 1, 3]) or its transpose ([0, 2, 3, 1])."""
    return g.op("Transpose", g.op("Reshape", x, g.const(_i64(0, 0, heads, head_dim))), perm=perm)


def attention(g, mod, query, key, value, attn_mask=None, need_weights=True, average_weights=True):
    """nn.MultiheadAttention.forward in eval mode: (output, weights or None)."""
    if mod.training and mod.dropout > 0:
        raise Unsupported("attention dropout in training mode")
    if mod.bias_k is not None or mod.add_zero_attn:
        raise Unsupported("add_bias_kv / add_zero_attn")
    e, heads = mod.embed_dim, mod.num_heads
    head_dim = e // heads
    if mod._qkv_same_embed_dim:
        wq, wk, wv = mod.in_proj_weight.chunk(3, 0)
    else:
        wq, wk, wv = mod.q_proj_weight, mod.k_proj_weight, mod.v_proj_weight
    bq, bk, bv = mod.in_proj_bias.chunk(3, 0) if mod.in_proj_bias is not None else (None, None, None)
    if not mod.batch_first:  # [L, B, E] -> [B, L, E]
        query, key, value = (g.op("Transpose", t, perm=[1, 0, 2]) for t in (query, key, value))
    q = _heads(g, ops_nn.linear(g, query, wq * (1.0 / math.sqrt(head_dim)), None if bq is None else
                                bq * (1.0 / math.sqrt(head_dim))), heads, head_dim, [0, 2, 1, 3])
    k = _heads(g, ops_nn.linear(g, key, wk, bk), heads, head_dim, [0, 2, 3, 1])
    v = _heads(g, ops_nn.linear(g, value, wv, bv), heads, head_dim, [0, 2, 1, 3])
    scores = g.op("MatMul", q, k)  # [B, heads, L, S]
    mask = _additive_mask(g, attn_mask)
    if mask is not None:
        scores = g.op("Add", scores, mask)
    attn = g.op("Softmax", scores, axis=-1)
    out = g.op("Reshape", g.op("Transpose", g.op("MatMul", attn, v), perm=[0, 2, 1, 3]), g.const(_i64(0, 0, e)))
    out = ops_nn.linear(g, out, mod.out_proj.weight, mod.out_proj.bias)
    if not mod.batch_first:
        out = g.op("Transpose", out, perm=[1, 0, 2])
    weights = None
    if need_weights:
        weights = g.op("ReduceMean", attn, axes=[1], keepdims=0) if average_weights else attn
    return out, weights


@converter(nn.MultiheadAttention)
def multihead_attention(g, mod, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                        average_attn_weights=True):
    if key_padding_mask is not None:
        raise Unsupported("key_padding_mask")
    return attention(g, mod, query, key, value, attn_mask, need_weights, average_attn_weights)


def _activation(g, act, x):
    if act is F.relu or isinstance(act, nn.ReLU):
        return g.op("Relu", x)
    if act is F.gelu:
        return ops_tensor.gelu(g, x)
    if isinstance(act, nn.Module):
        fn = registry.lookup("call_module", None, act)
        if fn is not None:
            return fn(g, act, x)
    raise Unsupported(f"transformer activation {act}")


def encoder_layer(g, mod, x, mask):
    for d in (mod.dropout, mod.dropout1, mod.dropout2):
        if mod.training and d.p > 0:
            raise Unsupported("transformer dropout in training mode")

    def self_attention(y):
        return attention(g, mod.self_attn, y, y, y, mask, need_weights=False)[0]

    def feed_forward(y):
        return ops_nn.linear(g, _activation(g, mod.activation, ops_nn.linear(g, y, mod.linear1.weight,
                                                                             mod.linear1.bias)),
                             mod.linear2.weight, mod.linear2.bias)

    def norm(n, y):
        return ops_nn.layer_norm_module(g, n, y)

    if mod.norm_first:
        x = g.op("Add", x, self_attention(norm(mod.norm1, x)))
        return g.op("Add", x, feed_forward(norm(mod.norm2, x)))
    x = norm(mod.norm1, g.op("Add", x, self_attention(x)))
    return norm(mod.norm2, g.op("Add", x, feed_forward(x)))


@converter(nn.TransformerEncoderLayer)
def transformer_encoder_layer(g, mod, src, src_mask=None, src_key_padding_mask=None, is_causal=None):
    if src_key_padding_mask is not None:
        raise Unsupported("src_key_padding_mask")
    return encoder_layer(g, mod, src, src_mask)


@converter(nn.TransformerEncoder)
def transformer_encoder(g, mod, src, mask=None, src_key_padding_mask=None, is_causal=None):
    if src_key_padding_mask is not None:
        raise Unsupported("src_key_padding_mask")
    x = src
    for layer in mod.layers:
        if registry.lookup("call_module", None, layer) is not transformer_encoder_layer:
            raise Unsupported(f"encoder layer {type(layer).__name__}")
        x = encoder_layer(g, layer, x, mask)
    return x if mod.norm is None else ops_nn.layer_norm_module(g, mod.norm, x)
