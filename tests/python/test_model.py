"""ge.compile / Model.run / run_async / info / save+load / Session, and errors as ge.GeError."""

import threading

import numpy as np
import pytest

import ge
from conftest import assert_close, mlp_model, mlp_reference


def test_compile_bytes_and_run(mlp):
    data, w, b = mlp
    model = ge.compile(data)
    assert [d["name"] for d in model.inputs] == ["x"]
    assert model.inputs[0]["shape"] == (-1, 4)
    x = np.random.default_rng(1).standard_normal((5, 4)).astype(np.float32)
    out = model.run({"x": x})
    assert list(out) == ["y"]
    assert out["y"].dtype == np.float32
    assert_close(out["y"], mlp_reference(x, w, b), "y")
    assert_close(model(x)[0], mlp_reference(x, w, b), "positional")  # a list in input order
    assert not out["y"].flags.owndata  # an array over GE's output buffer, not a copy


def test_compile_model_proto(mlp):
    import onnx
    data, w, b = mlp
    model = ge.compile(onnx.load_from_string(data))
    x = np.ones((1, 4), np.float32)
    assert_close(model.run({"x": x})["y"], mlp_reference(x, w, b))
    with pytest.raises(ge.GeError, match="expected a model path"):
        ge.compile(42)


def test_compile_file_options_and_info(mlp, tmp_path):
    data, w, b = mlp
    path = tmp_path / "mlp.onnx"
    path.write_bytes(data)
    model = ge.compile(path, mode="sink", opt_level=1, input_shapes={"x": [2, 4]})
    info = model.info()
    assert info["mode"] == "sink"
    assert info["inputs"][0]["shape"] == (2, 4)
    assert info["nodes"] > 0 and info["node_details"]
    x = np.ones((2, 4), np.float32)
    assert_close(model.run({"x": x})["y"], mlp_reference(x, w, b))


def test_strided_and_fortran_inputs(mlp):
    data, w, b = mlp
    model = ge.compile(data)
    rng = np.random.default_rng(2)
    strided = rng.standard_normal((3, 8)).astype(np.float32)[:, ::2]
    fortran = np.asfortranarray(rng.standard_normal((5, 4)).astype(np.float32))
    big_endian = rng.standard_normal((2, 4)).astype(">f4")
    for x in (strided, fortran, big_endian):
        assert_close(model.run({"x": x})["y"], mlp_reference(x.astype(np.float32), w, b))


def test_bad_model_bytes_raise_ge_error():
    with pytest.raises(ge.GeError) as e:
        ge.compile(b"\x08\x07not an onnx model at all", name="broken.onnx")
    assert isinstance(e.value, RuntimeError)
    assert "broken.onnx" in str(e.value)


def test_missing_file_raises_ge_error(tmp_path):
    with pytest.raises(ge.GeError, match="nope.onnx"):
        ge.compile(tmp_path / "nope.onnx")


def test_wrong_input_shape_names_the_input(mlp):
    model = ge.compile(mlp[0])
    with pytest.raises(ge.GeError, match=r"input 'x': expected float32\[-1, 4\], got float32\[2, 5\]"):
        model.run({"x": np.zeros((2, 5), np.float32)})
    with pytest.raises(ge.GeError, match="input 'x'.*float64"):
        model.run({"x": np.zeros((2, 4), np.float64)})
    with pytest.raises(ge.GeError, match="missing input 'x'"):
        model.run({})
    with pytest.raises(ge.GeError, match="unknown input 'z'"):
        model.run({"x": np.zeros((2, 4), np.float32), "z": 1})
    with pytest.raises(ge.GeError, match="input 'x': numpy dtype object is not supported"):
        model.run({"x": np.zeros((2, 4), object)})
    with pytest.raises(ge.GeError, match="expected a dict of input name -> array or a list of arrays, got str"):
        model.run("x")
    with pytest.raises(ge.GeError, match=r"expected 1 input\(s\) \('x'\), got 2"):
        model.run([np.zeros((2, 4), np.float32)] * 2)
    with pytest.raises(ge.GeError, match="mode 'fast'"):
        ge.compile(mlp[0], mode="fast")


def test_threads_run_one_model_concurrently(mlp):
    data, w, b = mlp
    model = ge.compile(data)
    rng = np.random.default_rng(4)
    inputs = [rng.standard_normal((16 + t, 4)).astype(np.float32) for t in range(4)]
    errors = []

    def worker(x):
        try:
            for _ in range(50):
                assert_close(model.run({"x": x})["y"], mlp_reference(x, w, b))
        except Exception as e:  # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(x,)) for x in inputs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_run_async(mlp):
    data, w, b = mlp
    model = ge.compile(data)
    xs = [np.full((2, 4), i, np.float32) for i in range(8)]
    futures = [model.run_async({"x": x}) for x in xs]
    for x, f in zip(xs, futures):
        assert_close(f.result(timeout=60)["y"], mlp_reference(x, w, b))


def test_save_and_load_gem(tmp_path):
    data, w, b = mlp_model(batch=3)
    model = ge.compile(data)
    gem = tmp_path / "mlp.gem"
    model.save(gem)
    assert gem.read_bytes()[:4] != data[:4]
    loaded = ge.load(gem)
    assert loaded.info()["offline"]
    x = np.random.default_rng(5).standard_normal((3, 4)).astype(np.float32)
    np.testing.assert_array_equal(loaded.run({"x": x})["y"], model.run({"x": x})["y"])
    assert_close(loaded.run({"x": x})["y"], mlp_reference(x, w, b))
    again = tmp_path / "again.gem"
    loaded.save(again)  # an offline model saves its own bytes
    assert again.read_bytes() == gem.read_bytes()


def test_session_api(mlp):
    data, w, b = mlp
    graph = ge.parse_onnx(data)
    assert graph.num_nodes == 3
    with pytest.raises(ge.GeError, match="not initialized"):
        ge.Session().run_graph(1, [np.zeros((1, 4), np.float32)])
    ge.initialize({"ge.exec.mode": "host"})
    try:
        session = ge.Session({"ge.optimizationLevel": "1"})
        session.add_graph(7, graph)
        assert session.is_graph_need_rebuild(7)
        x = np.random.default_rng(6).standard_normal((3, 4)).astype(np.float32)
        (y,) = session.run_graph(7, [x])
        assert_close(y, mlp_reference(x, w, b))
        assert not session.is_graph_need_rebuild(7)
        futures = [session.run_graph_async(7, [x * i]) for i in range(4)]
        for i, f in enumerate(futures):
            assert_close(f.result(timeout=60)[0], mlp_reference(x * i, w, b))
        bad = session.run_graph_async(7, [np.zeros((3, 5), np.float32)])
        with pytest.raises(ge.GeError, match="input 'x'"):
            bad.result(timeout=60)
        with pytest.raises(ge.GeError):
            session.add_graph(7, graph)  # the id is taken
        with pytest.raises(ge.GeError):
            session.run_graph(99, [x])
        session.add_graph(8, graph, {"ge.exec.mode": "sink"})
        session.build_graph(8, [x])  # fixes the dynamic batch to 3
        (y8,) = session.run_graph(8, [x])
        assert_close(y8, mlp_reference(x, w, b))
        session.remove_graph(7)
        del session
    finally:
        ge.finalize()


def test_parse_errors_raise_ge_error(tmp_path):
    with pytest.raises(ge.GeError):
        ge.parse_onnx(b"garbage")
    with pytest.raises(ge.GeError, match="missing.onnx"):
        ge.parse_onnx(str(tmp_path / "missing.onnx"))


def _forever_model():
    """y = Loop(M absent, cond = true, x) with body x + 1: it never ends."""
    from onnx import TensorProto, helper
    body = helper.make_graph(
        [helper.make_node("Identity", ["c_in"], ["c_out"]), helper.make_node("Add", ["x_in", "one"], ["x_out"])],
        "body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("c_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("x_in", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("c_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("x_out", TensorProto.FLOAT, [1])],
        [helper.make_tensor("one", TensorProto.FLOAT, [1], [1.0])])
    loop = helper.make_node("Loop", ["", "cond", "x"], ["y"], body=body, name="forever")
    graph = helper.make_graph([loop], "forever", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])],
                              [helper.make_tensor("cond", TensorProto.BOOL, [], [True])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model.SerializeToString()


def test_run_timeout_stops_a_loop_that_never_ends():
    import time
    model = ge.compile(_forever_model())
    start = time.monotonic()
    with pytest.raises(ge.GeError) as err:
        model.run({"x": np.zeros(1, np.float32)}, timeout=0.2)
    assert "time limit of 0.2 s" in str(err.value) and "node 'forever' (Loop)" in str(err.value), str(err.value)
    assert time.monotonic() - start < 20
    with pytest.raises(ge.GeError, match="time limit of 0.2 s"):
        model.run_async({"x": np.zeros(1, np.float32)}, timeout=0.2).result()
