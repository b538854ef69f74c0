'use strict';
/**
 * A headless stand-in for scratch-render, for the TurboWarp runner: keeps skins (sizes from
 * the SVG viewBox), drawables (position, direction, scale, visibility, layer order) and answers
 * the geometry questions the VM asks while running motion blocks (bounds of the rotated and
 * scaled costume rectangle, fencing to the stage). It draws nothing; touching/colour tests
 * answer false. Methods it does not know are no-ops (a Proxy), so a VM calling an unknown
 * renderer method still runs.
 *
 * Its presence matters: without a renderer, scratch-vm's motion blocks never request a
 * redraw, so `forever { move }` loops would run the whole work budget every frame instead of
 * once (see ../shared/refvm/README.md, pitfall 1).
 */

const STAGE_W = 480;
const STAGE_H = 360;
const FENCE = 15;

function svgSize (svg) {
    const vb = /viewBox\s*=\s*"\s*([-\d.eE]+)[\s,]+([-\d.eE]+)[\s,]+([-\d.eE]+)[\s,]+([-\d.eE]+)\s*"/.exec(svg);
    if (vb) return [Number(vb[3]), Number(vb[4])];
    const w = /\swidth\s*=\s*"([\d.]+)/.exec(svg);
    const h = /\sheight\s*=\s*"([\d.]+)/.exec(svg);
    return [w ? Number(w[1]) : 0, h ? Number(h[1]) : 0];
}

class StubRenderer {
    constructor () {
        this._skins = new Map();
        this._drawables = new Map();
        this._order = [];
        this._next = 1;
        this._groups = [];
        return new Proxy(this, {
            get (target, prop) {
                if (prop in target) return target[prop];
                if (typeof prop === 'symbol' || prop === 'then') return undefined;
                return () => undefined;
            }
        });
    }

    setLayerGroupOrdering (groups) { this._groups = groups.slice(); }
    getNativeSize () { return [STAGE_W, STAGE_H]; }

    _skin (size, rotationCenter) {
        const id = this._next++;
        const center = rotationCenter ? rotationCenter.slice() : [size[0] / 2, size[1] / 2];
        this._skins.set(id, {size, center});
        return id;
    }

    createSVGSkin (svg, rotationCenter) { return this._skin(svgSize(String(svg)), rotationCenter); }
    createBitmapSkin (bitmap, resolution, rotationCenter) {
        const r = resolution || 1;
        return this._skin([(bitmap && bitmap.width || 0) / r, (bitmap && bitmap.height || 0) / r], rotationCenter);
    }

    createTextSkin () { return this._skin([160, 50]); }
    createPenSkin () { return this._skin([STAGE_W, STAGE_H]); }
    getSkinSize (id) { const s = this._skins.get(id); return s ? s.size.slice() : [0, 0]; }
    getSkinRotationCenter (id) { const s = this._skins.get(id); return s ? s.center.slice() : [0, 0]; }
    destroySkin (id) { this._skins.delete(id); }

    createDrawable (group) {
        const id = this._next++;
        this._drawables.set(id, {group, skinId: null, x: 0, y: 0, dir: 90, scale: [100, 100], visible: true});
        this._order.push(id);
        return id;
    }

    destroyDrawable (id) {
        this._drawables.delete(id);
        const i = this._order.indexOf(id);
        if (i >= 0) this._order.splice(i, 1);
    }

    updateDrawableSkinId (id, skinId) { const d = this._drawables.get(id); if (d) d.skinId = skinId; }
    updateDrawablePosition (id, p) { const d = this._drawables.get(id); if (d) { d.x = p[0]; d.y = p[1]; } }
    updateDrawableDirectionScale (id, dir, scale) {
        const d = this._drawables.get(id);
        if (d) { d.dir = dir; d.scale = scale.slice(); }
    }

    updateDrawableVisible (id, v) { const d = this._drawables.get(id); if (d) d.visible = v; }
    updateDrawableProperties (id, props) {
        const d = this._drawables.get(id);
        if (!d) return;
        if (props.skinId !== undefined) d.skinId = props.skinId;
        if (props.position) { d.x = props.position[0]; d.y = props.position[1]; }
        if (props.direction !== undefined) d.dir = props.direction;
        if (props.scale) d.scale = props.scale.slice();
        if (props.visible !== undefined) d.visible = props.visible;
    }

    getCurrentSkinSize (id) {
        const d = this._drawables.get(id);
        return d && d.skinId !== null ? this.getSkinSize(d.skinId) : [0, 0];
    }

    /** Axis-aligned bounds of the drawable's rotated, scaled costume rectangle at (x, y). */
    _bounds (d, x, y) {
        const s = this._skins.get(d.skinId);
        if (!s) return {left: x, right: x, top: y, bottom: y, width: 0, height: 0};
        const sx = d.scale[0] / 100;
        const sy = d.scale[1] / 100;
        const rad = (90 - d.dir) * Math.PI / 180;
        const cos = Math.cos(rad);
        const sin = Math.sin(rad);
        let left = Infinity; let right = -Infinity; let bottom = Infinity; let top = -Infinity;
        for (const [px, py] of [[0, 0], [s.size[0], 0], [0, s.size[1]], [s.size[0], s.size[1]]]) {
            const lx = (px - s.center[0]) * sx;
            const ly = (s.center[1] - py) * sy;
            const wx = x + lx * cos - ly * sin;
            const wy = y + lx * sin + ly * cos;
            left = Math.min(left, wx); right = Math.max(right, wx);
            bottom = Math.min(bottom, wy); top = Math.max(top, wy);
        }
        return {left, right, top, bottom, width: right - left, height: top - bottom};
    }

    getBounds (id) { const d = this._drawables.get(id); return d ? this._bounds(d, d.x, d.y) : null; }
    getBoundsForBubble (id) { return this.getBounds(id); }
    getAABB (id) { return this.getBounds(id); }

    /** Keeps at least a sliver of the costume on stage, like scratch-render's fencing. */
    getFencedPositionOfDrawable (id, position) {
        const d = this._drawables.get(id);
        if (!d) return position;
        let [x, y] = position;
        const b = this._bounds(d, d.x, d.y);
        const inset = Math.floor(Math.min(b.width, b.height) / 2);
        const sx = STAGE_W / 2 - Math.min(FENCE, inset);
        const sy = STAGE_H / 2 - Math.min(FENCE, inset);
        const dx = x - d.x;
        const dy = y - d.y;
        if (b.right + dx < -sx) x = Math.ceil(d.x - (sx + b.right));
        else if (b.left + dx > sx) x = Math.floor(d.x + (sx - b.left));
        if (b.top + dy < -sy) y = Math.ceil(d.y - (sy + b.top));
        else if (b.bottom + dy > sy) y = Math.floor(d.y + (sy - b.bottom));
        return [x, y];
    }

    getDrawableOrder (id) { return this._order.indexOf(id); }
    setDrawableOrder (id, order, group, isRelative) {
        const i = this._order.indexOf(id);
        if (i < 0) return undefined;
        this._order.splice(i, 1);
        const at = Math.max(1, Math.min(this._order.length, isRelative ? i + order : order));
        this._order.splice(at, 0, id);
        return at;
    }

    pick () { return -1; }
    drawableTouching () { return false; }
    isTouchingDrawables () { return false; }
    isTouchingColor () { return false; }
    draw () {}
}

module.exports = {StubRenderer};
