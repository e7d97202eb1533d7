"""`pip install .`: the Python package vqx, its module built by CMake.

Debian 12 has no scikit-build-core, so setuptools runs CMake itself: it
configures a build of the module alone (-DVQX_PYTHON=ON, no tests) for the
interpreter that runs pip, builds the target _vqx and puts the module into
the package (python/vqx). VQX_CMAKE_ARGS adds arguments to the configure
step. Offline, as on Debian, pip needs --no-build-isolation (docs/python.md).
"""

import os
import pathlib
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        build = pathlib.Path(self.build_temp).resolve() / "cmake"
        configure = ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                     "-DVQX_PYTHON=ON", "-DVQX_BUILD_TESTS=OFF",
                     f"-DPython3_EXECUTABLE={sys.executable}"]
        if shutil.which("ninja"):
            configure += ["-G", "Ninja"]
        if shutil.which("ccache"):
            configure += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"]
        configure += shlex.split(os.environ.get("VQX_CMAKE_ARGS", ""))
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        subprocess.run(configure, check=True)
        subprocess.run(["cmake", "--build", str(build), "--target", "_vqx", "-j", jobs], check=True)
        built = sorted((build / "python" / "vqx").glob("_vqx*.so"))
        if len(built) != 1:
            raise RuntimeError(f"expected one _vqx module in {build / 'python' / 'vqx'}, found {built}")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], target)


setup(ext_modules=[Extension("vqx._vqx", sources=[])], cmdclass={"build_ext": CMakeBuild})
