'use strict';
// Loads each file named on the command line in refvm's scratch-vm 5.0.300 (`$REFVM/lib/refvm.js`)
// and prints one JSON line per file: `{file, ok, targets: [{name, stage, blocks}]}` with the
// original targets and the ids of their non-shadow blocks, or `{file, ok: false, error}` when
// scratch-vm rejects it. Used by hosts/cli/tests/repack_refvm.rs.
const fs = require('fs');
const path = require('path');
const refvm = require(path.join(process.env.REFVM, 'lib', 'refvm.js'));

(async () => {
    for (const file of process.argv.slice(2)) {
        let line;
        try {
            const h = await refvm.createOracle({project: fs.readFileSync(file), renderer: 'none'});
            const targets = h.vm.runtime.targets.filter(t => t.isOriginal).map(t => {
                const blocks = t.blocks._blocks;
                const ids = Object.keys(blocks).filter(id => !blocks[id].shadow);
                return {name: t.getName(), stage: t.isStage, blocks: ids};
            });
            h.dispose();
            line = {file, ok: true, targets};
        } catch (e) {
            line = {file, ok: false, error: String((e && e.message) || e)};
        }
        process.stdout.write(JSON.stringify(line) + '\n');
    }
})();
