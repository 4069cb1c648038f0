
document.querySelectorAll('table.sortable th button').forEach(function(b){b.addEventListener('click',function(){
var th=b.parentElement,table=th.closest('table'),i=[].indexOf.call(th.parentElement.children,th),
body=table.tBodies[0],rows=[].slice.call(body.rows),asc=th.getAttribute('aria-sort')!=='ascending';
rows.sort(function(r1,r2){var a=r1.cells[i].dataset.v,c=r2.cells[i].dataset.v;
var x=parseFloat(a),y=parseFloat(c);if(isNaN(x))x=-Infinity;if(isNaN(y))y=-Infinity;
if(a===undefined||c===undefined){
a=r1.cells[i].textContent;c=r2.cells[i].textContent;return asc?a.localeCompare(c):c.localeCompare(a)}
return asc?x-y:y-x});
table.querySelectorAll('th').forEach(function(h){h.removeAttribute('aria-sort')});
th.setAttribute('aria-sort',asc?'ascending':'descending');rows.forEach(function(r){body.appendChild(r)})})});
